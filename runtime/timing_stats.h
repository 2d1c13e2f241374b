// Aggregate timing of one call signature: count, mean and variance
// (Welford), minimum and maximum, in nanoseconds.
#pragma once

#include <cstdint>

namespace pilgrim::rt {

struct TimingAccumulator {
  uint64_t n = 0;
  double mean = 0, m2 = 0, min = 0, max = 0;
  void add(double x) {
    ++n;
    double d = x - mean;
    mean += d / static_cast<double>(n);
    m2 += d * (x - mean);
    if (n == 1 || x < min)
      min = x;
    if (n == 1 || x > max)
      max = x;
  }
};

}  // namespace pilgrim::rt
