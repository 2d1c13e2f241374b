#include "pilgrim/timing_stats.h"

#include <cmath>

namespace pilgrim {

void add_sample(TimingStats &s, double x) {
  if (s.n == 0) {
    s.min = s.max = x;
  } else {
    if (x < s.min)
      s.min = x;
    if (x > s.max)
      s.max = x;
  }
  s.n += 1;
  const double delta = x - s.mean;
  s.mean += delta / static_cast<double>(s.n);
  s.m2 += delta * (x - s.mean);
}

void merge_stats(TimingStats &into, const TimingStats &other) {
  if (other.n == 0)
    return;
  if (into.n == 0) {
    into = other;
    return;
  }
  const double na = static_cast<double>(into.n);
  const double nb = static_cast<double>(other.n);
  const double n = na + nb;
  const double delta = other.mean - into.mean;
  into.mean += delta * nb / n;
  into.m2 += other.m2 + delta * delta * na * nb / n;
  into.n += other.n;
  if (other.min < into.min)
    into.min = other.min;
  if (other.max > into.max)
    into.max = other.max;
}

double stddev(const TimingStats &s) {
  if (s.n < 2 || !(s.m2 > 0))
    return 0;
  return std::sqrt(s.m2 / static_cast<double>(s.n - 1));
}

} // namespace pilgrim
