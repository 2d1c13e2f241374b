#include "chrome_placement.h"

#include <cmath>

namespace pilgrim::exporter {

int64_t seconds_ns(double seconds) {
  const double ns = std::round(seconds * 1e9);
  // Far beyond any run (292 years); keeps the conversion defined.
  const double limit = 9.2e18;
  return !(ns > -limit) ? static_cast<int64_t>(-limit)
         : ns > limit   ? static_cast<int64_t>(limit)
                        : static_cast<int64_t>(ns);
}

CallPlacement::CallPlacement(const reader::TraceFile &trace, uint32_t rank) {
  real_ = trace.has_call_times();
  if (real_)
    times_ = trace.call_times(rank);
}

Span CallPlacement::raw(uint64_t index) const {
  if (!real_) {
    const int64_t at = static_cast<int64_t>(index) * kOrderedCallNs;
    return {at, at + kOrderedCallNs};
  }
  if (index >= times_.size())
    return {};
  Span s{seconds_ns(times_[index].start), seconds_ns(times_[index].end)};
  if (s.end < s.start)
    s.end = s.start;
  return s;
}

Span CallPlacement::place(uint64_t index, uint64_t thread) {
  Span s = raw(index);
  const auto it = track_end_.find(thread);
  if (it != track_end_.end() && s.start < it->second) {
    ++moved_;
    s.start = it->second;
    if (s.end < s.start)
      s.end = s.start;
  }
  track_end_[thread] = s.end;
  return s;
}

} // namespace pilgrim::exporter
