#include "chrome_flows.h"

#include <algorithm>

#include "chrome_placement.h"

namespace pilgrim::exporter {

ChromeFlows::ChromeFlows(const reader::TraceFile &trace, const std::vector<bool> &selected,
                         const ExportOptions &options) {
  const uint32_t n = trace.nranks();
  ends_.resize(n);
  MatchOptions match;
  match.full_check = false;
  MatchResult result = match_messages(trace, match);
  unmatched_ = result.findings.size();
  auto chosen = [&](const CallPlace &p) { return p.rank < n && selected[p.rank]; };
  for (size_t m = 0; m < result.messages.size(); ++m) {
    const MatchedMessage &msg = result.messages[m];
    if (!chosen(msg.send) || !chosen(msg.recv_complete))
      continue;
    ends_[msg.send.rank].push_back({msg.send.index, m, true});
    ends_[msg.recv_complete.rank].push_back({msg.recv_complete.index, m, false});
  }
  const uint64_t messages = result.messages.size();
  result = MatchResult{};
  // With --time, a flow whose end lies outside the window is dropped: its
  // other end must go too (a second look at the ranks' times).
  std::vector<bool> dropped;
  if (options.has_time) {
    dropped.assign(messages, false);
    const int64_t from = seconds_ns(options.time_from), to = seconds_ns(options.time_to);
    for (uint32_t r = 0; r < n; ++r) {
      if (ends_[r].empty())
        continue;
      const CallPlacement times(trace, r);
      for (const End &e : ends_[r])
        if (!overlaps(times.raw(e.index), from, to))
          dropped[e.flow] = true;
    }
  }
  for (std::vector<End> &ends : ends_) {
    if (!dropped.empty())
      ends.erase(
          std::remove_if(ends.begin(), ends.end(), [&](const End &e) { return dropped[e.flow]; }),
          ends.end());
    std::stable_sort(ends.begin(), ends.end(),
                     [](const End &a, const End &b) { return a.index < b.index; });
    for (const End &e : ends)
      count_ += e.out ? 1 : 0;
    ends.shrink_to_fit();
  }
}

} // namespace pilgrim::exporter
