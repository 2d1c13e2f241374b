// Rank classes of per-call gaps (call_gaps.h): ranks whose gaps agree at the
// grammar positions they share replay one table, so that the proxy's data
// grows with the number of distinct rank behaviours, not with the ranks.
//
// Ranks join classes greedily in rank order: a rank joins the first class
// whose pooled per-position means, replayed instead of its own, change the
// rank's replayed computation by at most kClassTolerance of it (or, when
// that is less, kClassFloor of the rank's run span: first call's start to
// last call's end), and whose members' replay the rank's means change by at
// most as much on average. The change is the sum, over the positions both
// have, of |class mean - rank mean| x calls. Else the rank opens a class of
// its own. The measure is the effect on the replayed time, not a
// significance test: with thousands of gaps per position any jitter is
// significant, while what matters for the proxy is the time it replays.
// 5% is half the fidelity target of 10%; the floor keeps differences that
// are negligible against the run (rank 0 printing once, microseconds of
// jitter between ranks that hardly compute) from splitting ranks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim::proxygen {

constexpr double kClassTolerance = 0.05;
constexpr double kClassFloor = 0.01;

// One rank's gaps: per slot it replays at (ascending), how many and their
// sum (seconds); and its run's span (seconds).
struct RankSlotSums {
  std::vector<uint64_t> slot;
  std::vector<uint64_t> n;
  std::vector<double> sum;
  double span = 0;
};

struct RankClasses {
  std::vector<uint32_t> class_of; // per rank
  uint32_t count = 0;
};

// `slots`: the number of gap slots (every rank's slots are below it).
RankClasses group_ranks(const std::vector<RankSlotSums> &ranks, size_t slots);

} // namespace pilgrim::proxygen
