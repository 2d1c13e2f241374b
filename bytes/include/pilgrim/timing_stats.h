// Running duration statistics of one CST entry (Welford), in seconds.
#pragma once

#include <cstdint>

namespace pilgrim {

struct TimingStats {
  uint64_t n = 0;  // number of samples; 0 = no timing recorded
  double mean = 0; // running mean
  double m2 = 0;   // Welford's sum of squared differences from the mean
  double min = 0;
  double max = 0;
};

// Adds one sample.
void add_sample(TimingStats &stats, double x);

// Folds `other` into `into` (Chan et al.'s parallel combination).
void merge_stats(TimingStats &into, const TimingStats &other);

// Sample standard deviation sqrt(m2 / (n - 1)); 0 for n < 2.
double stddev(const TimingStats &stats);

} // namespace pilgrim
