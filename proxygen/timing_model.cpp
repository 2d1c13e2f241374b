#include "timing_model.h"

#include <algorithm>

#include "pilgrim/grammar_walker.h"

namespace pilgrim::proxygen {

std::vector<double> estimate_gaps(const Trace &trace) {
  const MergedTrace &m = trace.merged;
  const size_t n = m.cst.size();
  std::vector<double> gaps(n, 0.0);
  // Per terminal: calls of the ranks that use it, and its own calls.
  std::vector<double> rank_calls(n, 0.0), own_calls(n, 0.0);
  double all_calls = 0, all_duration = 0;
  for (const RankRange &range : m.rank_map) {
    if (range.grammar >= m.roots.size())
      continue;
    const uint64_t root = m.roots[range.grammar];
    const double length = static_cast<double>(expanded_length(m.rules, root));
    for (const auto &tc : terminal_counts(m.rules, root)) {
      if (tc.first >= n)
        continue;
      rank_calls[tc.first] += length * range.count;
      own_calls[tc.first] += static_cast<double>(tc.second) * range.count;
    }
  }
  // The mean duration of the calls that repeat (those with an interval):
  // one-off calls such as MPI_Init would weigh far more than their share.
  for (size_t t = 0; t < n; ++t) {
    const CstEntry &e = m.cst[t];
    if (e.duration.n == 0 || e.interval.n == 0)
      continue;
    all_calls += static_cast<double>(e.duration.n);
    all_duration += e.duration.mean * static_cast<double>(e.duration.n);
  }
  const double mean_duration = all_calls > 0 ? all_duration / all_calls : 0;
  for (size_t t = 0; t < n; ++t) {
    const CstEntry &e = m.cst[t];
    if (e.interval.n == 0 || own_calls[t] <= 0)
      continue;
    const double k = std::max(1.0, rank_calls[t] / own_calls[t]);
    gaps[t] = std::max(0.0, e.interval.mean / k - mean_duration);
  }
  return gaps;
}

} // namespace pilgrim::proxygen
