#include "pilgrim/timing_quality.h"

#include <algorithm>
#include <cmath>

namespace pilgrim {

void StreamQuality::add_value(double decoded, double exact) {
  const double e = std::fabs(decoded - exact);
  ++n;
  max_absolute = std::max(max_absolute, e);
  if (e > 0)
    max_relative = std::max(max_relative, exact == 0 ? std::numeric_limits<double>::infinity()
                                                     : e / std::fabs(exact));
  sum_squared += e * e;
  min_exact = std::min(min_exact, exact);
  max_exact = std::max(max_exact, exact);
}

void StreamQuality::add(const StreamQuality &o) {
  n += o.n;
  max_absolute = std::max(max_absolute, o.max_absolute);
  max_relative = std::max(max_relative, o.max_relative);
  sum_squared += o.sum_squared;
  min_exact = std::min(min_exact, o.min_exact);
  max_exact = std::max(max_exact, o.max_exact);
}

double StreamQuality::rmse() const {
  return n == 0 ? std::nan("") : std::sqrt(sum_squared / static_cast<double>(n));
}

double StreamQuality::psnr() const {
  if (n == 0)
    return std::nan("");
  if (sum_squared == 0)
    return std::numeric_limits<double>::infinity();
  const double range = max_exact - min_exact;
  if (range <= 0)
    return std::nan("");
  return 20 * std::log10(range / rmse());
}

void TimesQuality::add(const TimesQuality &o) {
  duration.add(o.duration);
  gap.add(o.gap);
  max_time_error = std::max(max_time_error, o.max_time_error);
}

TimesQuality times_quality(const std::vector<int64_t> &start, const std::vector<int64_t> &end,
                           const std::vector<int64_t> &exact_start,
                           const std::vector<int64_t> &exact_end) {
  TimesQuality q;
  const size_t n = std::min({start.size(), end.size(), exact_start.size(), exact_end.size()});
  const auto d = [](int64_t a, int64_t b) {
    return static_cast<double>(a) - static_cast<double>(b);
  };
  for (size_t i = 0; i < n; ++i) {
    q.duration.add_value(d(end[i], start[i]), d(exact_end[i], exact_start[i]));
    if (i > 0)
      q.gap.add_value(d(start[i], end[i - 1]), d(exact_start[i], exact_end[i - 1]));
    const int64_t es = start[i] - exact_start[i], ee = end[i] - exact_end[i];
    q.max_time_error = std::max({q.max_time_error, es < 0 ? -es : es, ee < 0 ? -ee : ee});
  }
  return q;
}

} // namespace pilgrim
