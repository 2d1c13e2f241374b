// How well a lossy timing mode kept one stream of values (the calls'
// durations, or their gaps): the largest absolute and relative error and the
// PSNR of the decoded values against the exact ones of the verification
// copy (PILGRIM_VERIFY=1). pilgrim-stats --timing prints it (docs/STATS.md);
// the measures are docs/FORMAT.md §7.10's ("Error measures"):
//   PSNR = 20 log10(range / RMSE) dB, range = max - min of the exact values,
//   RMSE = sqrt(mean of (decoded - exact)^2) over the stream;
// infinite when every value is exact (RMSE 0), undefined (NaN) when the
// range is 0 but some value is not exact, or the stream is empty.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace pilgrim {

struct StreamQuality {
  uint64_t n = 0;
  double max_absolute = 0; // largest |decoded - exact|, in the values' unit
  double max_relative = 0; // largest |decoded - exact| / |exact|; 0 where equal
  double sum_squared = 0;  // of decoded - exact
  double min_exact = std::numeric_limits<double>::infinity();
  double max_exact = -std::numeric_limits<double>::infinity();

  void add_value(double decoded, double exact);
  // Merges another stream's values (several ranks into one total).
  void add(const StreamQuality &other);
  double rmse() const;
  double psnr() const; // dB
};

// The quality of one rank's decoded ticks against the exact ones (the same
// number of calls, in call order): `duration` over end - start, `gap` over
// each call's start minus the previous call's end on the rank (the values
// the codecs bound, docs/FORMAT.md §7.10; the first call has none), and the
// largest error of any reconstructed start or end (no drift). Values in
// ticks.
struct TimesQuality {
  StreamQuality duration, gap;
  int64_t max_time_error = 0;
  void add(const TimesQuality &other);
};
TimesQuality times_quality(const std::vector<int64_t> &start, const std::vector<int64_t> &end,
                           const std::vector<int64_t> &exact_start,
                           const std::vector<int64_t> &exact_end);

} // namespace pilgrim
