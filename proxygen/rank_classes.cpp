#include "rank_classes.h"

#include <algorithm>
#include <cmath>

namespace pilgrim::proxygen {

namespace {

// What a change of `total` replayed computation in a run of `span`
// seconds may be (rank_classes.h).
double allowed(double total, double span) {
  return std::max(kClassTolerance * total, kClassFloor * span);
}

double total_of(const RankSlotSums &rank) {
  double total = 0;
  for (double s : rank.sum)
    total += s;
  return total;
}

// A class's pooled gaps per slot, and its members' summed computation and
// spans.
struct PooledGaps {
  std::vector<uint64_t> n;
  std::vector<double> sum;
  double total = 0, spans = 0;

  // Whether `rank` may share this class's table (rank_classes.h).
  bool admits(const RankSlotSums &rank) const {
    double rank_change = 0, class_change = 0;
    for (size_t i = 0; i < rank.slot.size(); ++i) {
      const uint64_t s = rank.slot[i];
      if (n[s] == 0 || rank.n[i] == 0)
        continue;
      const double apart = std::fabs(sum[s] / static_cast<double>(n[s]) -
                                     rank.sum[i] / static_cast<double>(rank.n[i]));
      rank_change += apart * static_cast<double>(rank.n[i]);
      class_change += apart * static_cast<double>(n[s]);
    }
    return rank_change <= allowed(total_of(rank), rank.span) &&
           class_change <= allowed(total, spans);
  }

  void add(const RankSlotSums &rank) {
    for (size_t i = 0; i < rank.slot.size(); ++i) {
      n[rank.slot[i]] += rank.n[i];
      sum[rank.slot[i]] += rank.sum[i];
    }
    total += total_of(rank);
    spans += rank.span;
  }
};

} // namespace

RankClasses group_ranks(const std::vector<RankSlotSums> &ranks, size_t slots) {
  RankClasses out;
  out.class_of.reserve(ranks.size());
  std::vector<PooledGaps> classes;
  for (const RankSlotSums &rank : ranks) {
    size_t c = 0;
    while (c < classes.size() && !classes[c].admits(rank))
      ++c;
    if (c == classes.size())
      classes.push_back(PooledGaps{std::vector<uint64_t>(slots), std::vector<double>(slots), 0, 0});
    classes[c].add(rank);
    out.class_of.push_back(static_cast<uint32_t>(c));
  }
  out.count = static_cast<uint32_t>(classes.size());
  return out;
}

} // namespace pilgrim::proxygen
