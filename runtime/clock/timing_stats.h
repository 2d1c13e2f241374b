// Aggregate timing of one call signature in clock ticks (runtime/clock/clock.h):
// count, sum, sum of squares, minimum and maximum. Integer sums keep the hot
// path free of divisions and are exact; mean and variance are derived when
// the trace is written.
#pragma once

#include <cstdint>

namespace pilgrim::rt {

struct TimingAccumulator {
  uint64_t n = 0, sum = 0, min = UINT64_MAX, max = 0;
  unsigned __int128 sum_sq = 0;
  __attribute__((always_inline)) void add(int64_t ticks) {
    const uint64_t x = ticks > 0 ? static_cast<uint64_t>(ticks) : 0;
    ++n;
    sum += x;
    sum_sq += static_cast<unsigned __int128>(x) * x;
    if (x < min)
      min = x;
    if (x > max)
      max = x;
  }
  double mean() const { return n ? static_cast<double>(sum) / static_cast<double>(n) : 0.0; }
  // Sum of squared differences from the mean (Welford's m2).
  double m2() const {
    if (n < 2)
      return 0.0;
    const long double s = static_cast<long double>(sum);
    const long double m = static_cast<long double>(sum_sq) - s * s / static_cast<long double>(n);
    return m > 0 ? static_cast<double>(m) : 0.0;
  }
};

} // namespace pilgrim::rt
