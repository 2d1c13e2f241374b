#include "timing_model.h"

#include <algorithm>
#include <map>

#include "pilgrim/grammar_walker.h"
#include "signature_spans.h"

namespace pilgrim::proxygen {

namespace {

// Per terminal, how many ranks make it.
std::vector<double> ranks_making(const MergedTrace &m) {
  std::vector<double> ranks(m.cst.size(), 0.0);
  for (const RankRange &range : m.rank_map) {
    if (range.grammar >= m.roots.size())
      continue;
    for (const auto &tc : terminal_counts(m.rules, m.roots[range.grammar]))
      if (tc.first < ranks.size())
        ranks[tc.first] += range.count;
  }
  return ranks;
}

// The duration that counts for the wall time (timing_model.h).
double effective_duration(const CstEntry &e, double ranks) {
  if (e.duration.n == 0)
    return 0;
  return ranks >= 2 && e.interval.n > 0 ? e.duration.min : e.duration.mean;
}

} // namespace

std::vector<double> estimate_gaps(const Trace &trace) {
  const MergedTrace &m = trace.merged;
  const size_t n = m.cst.size();
  const std::vector<double> ranks = ranks_making(m);
  std::vector<double> duration(n);
  for (size_t t = 0; t < n; ++t)
    duration[t] = effective_duration(m.cst[t], ranks[t]);
  // Covered calls and their durations, summed over the ranks.
  std::vector<double> calls(n, 0.0), covered(n, 0.0);
  std::map<uint64_t, std::map<uint64_t, SignatureSpan>> per_root;
  for (const RankRange &range : m.rank_map) {
    if (range.grammar >= m.roots.size())
      continue;
    const uint64_t root = m.roots[range.grammar];
    auto it = per_root.find(root);
    if (it == per_root.end())
      it = per_root.emplace(root, signature_spans(m.rules, root, duration)).first;
    for (const auto &entry : it->second) {
      if (entry.first >= n)
        continue;
      calls[entry.first] += entry.second.calls * range.count;
      covered[entry.first] += entry.second.weight * range.count;
    }
  }
  std::vector<double> gaps(n, 0.0);
  for (size_t t = 0; t < n; ++t) {
    const TimingStats &interval = m.cst[t].interval;
    if (interval.n == 0 || calls[t] <= 0)
      continue;
    const double total = interval.mean * static_cast<double>(interval.n);
    gaps[t] = std::max(0.0, (total - covered[t]) / calls[t]);
  }
  return gaps;
}

} // namespace pilgrim::proxygen
