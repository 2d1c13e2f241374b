// The compute kernel of the master/worker and imbalance programs: a sum of
// sines, which the compiler cannot shorten, with a closed form to check it:
//   sum_{k=1..m} sin(k x) = sin(m x / 2) sin((m + 1) x / 2) / sin(x / 2).
#pragma once

#include <cmath>

namespace fidelity {

inline double sine_sum(long m, double x) {
  double s = 0;
  for (long k = 1; k <= m; ++k)
    s += std::sin(double(k) * x);
  return s;
}

inline double sine_sum_closed(long m, double x) {
  return std::sin(double(m) * x / 2) * std::sin(double(m + 1) * x / 2) / std::sin(x / 2);
}

// Whether a computed sum of m terms matches the closed form.
inline bool sine_sum_ok(double got, long m, double x) {
  return std::fabs(got - sine_sum_closed(m, x)) <= 1e-9 * double(m);
}

}  // namespace fidelity
