// Ranks grouped by their per-position gaps (proxygen/rank_classes.h).
#include "rank_classes.h"

#include <gtest/gtest.h>

using namespace pilgrim::proxygen;

namespace {

// A rank with `calls` gaps of `gap` seconds at each of `slots`, in a run of
// `span` seconds.
RankSlotSums rank(std::vector<uint64_t> slots, std::vector<double> gap, uint64_t calls,
                  double span) {
  RankSlotSums r;
  r.slot = std::move(slots);
  for (double g : gap) {
    r.n.push_back(calls);
    r.sum.push_back(g * static_cast<double>(calls));
  }
  r.span = span;
  return r;
}

} // namespace

TEST(RankClasses, RanksThatAgreeShareOneClass) {
  // Four ranks computing alike, 3% apart: one table.
  std::vector<RankSlotSums> ranks;
  for (int r = 0; r < 4; ++r)
    ranks.push_back(rank({0, 1}, {1e-3 * (1 + 0.01 * r), 2e-3}, 100, 0.4));
  const RankClasses c = group_ranks(ranks, 2);
  EXPECT_EQ(c.count, 1u);
  EXPECT_EQ(c.class_of, (std::vector<uint32_t>{0, 0, 0, 0}));
}

TEST(RankClasses, ImbalancedRanksGetClassesOfTheirOwn) {
  // The imbalance benchmark at 3 ranks: each rank's cost per phase differs
  // (1x, 1.5x, 2x); ranks 0 and 3 behave alike.
  std::vector<RankSlotSums> ranks = {
      rank({0, 1, 2}, {1e-3, 1.5e-3, 2e-3}, 100, 0.7),
      rank({0, 1, 2}, {1.5e-3, 1e-3, 2e-3}, 100, 0.7),
      rank({0, 1, 2}, {2e-3, 2e-3, 1e-3}, 100, 0.7),
      rank({0, 1, 2}, {1e-3, 1.5e-3, 2e-3}, 100, 0.7),
  };
  const RankClasses c = group_ranks(ranks, 3);
  EXPECT_EQ(c.count, 3u);
  EXPECT_EQ(c.class_of, (std::vector<uint32_t>{0, 1, 2, 0}));
}

TEST(RankClasses, ImbalanceSplitsInARunThatMostlyWaits) {
  // The same imbalance in a run of 10 s spent mostly inside MPI (a loaded
  // machine): the ranks' computations still differ by 27% of theirs.
  std::vector<RankSlotSums> ranks = {rank({0, 1, 2, 3}, {1e-3, 1.5e-3, 2e-3, 1e-3}, 200, 10),
                                     rank({0, 1, 2, 3}, {1.5e-3, 1e-3, 2e-3, 1.5e-3}, 200, 10)};
  EXPECT_EQ(group_ranks(ranks, 4).count, 2u);
}

TEST(RankClasses, RanksThatHardlyComputeShareOneClass) {
  // 5 us apart over 10 calls, ranks computing 20 and 70 us in a 0.1 s run:
  // far apart relative to their computation, negligible against the run.
  std::vector<RankSlotSums> ranks = {rank({0}, {2e-6}, 10, 0.1), rank({0}, {7e-6}, 10, 0.1)};
  EXPECT_EQ(group_ranks(ranks, 1).count, 1u);
}

TEST(RankClasses, DifferencesSmallAgainstTheRunDoNotSplit) {
  // One position, made once, differs by 100 us in a 0.5 s run (a rank's
  // output before MPI_Finalize): 0.02% of the run, one class.
  std::vector<RankSlotSums> ranks = {rank({0, 1}, {1e-3, 0}, 100, 0.5),
                                     rank({0, 1}, {1e-3, 1e-4}, 100, 0.5)};
  ranks[0].n[1] = ranks[1].n[1] = 1;
  ranks[1].sum[1] = 1e-4;
  EXPECT_EQ(group_ranks(ranks, 2).count, 1u);
}

TEST(RankClasses, RanksOfDisjointPositionsArePooledPerPosition) {
  // A master (slot 0) and two workers (slots 1, 2) that compute alike: the
  // master shares no position with them and joins any class, and the
  // workers are compared with each other through the pooled class.
  std::vector<RankSlotSums> ranks = {
      rank({0}, {1e-5}, 100, 0.5), rank({1, 2}, {2e-3, 1e-4}, 100, 0.5),
      rank({1, 2}, {2e-3, 1e-4}, 100, 0.5), rank({1, 2}, {4e-3, 1e-4}, 100, 0.5)};
  const RankClasses c = group_ranks(ranks, 3);
  EXPECT_EQ(c.class_of, (std::vector<uint32_t>{0, 0, 0, 1}));
}

TEST(RankClasses, NoRanksNoClasses) { EXPECT_EQ(group_ranks({}, 0).count, 0u); }
