// Rank 0's timeline from synthetic clocks: offsets, drift, missing syncs.
#include "pilgrim/clock_alignment.h"

#include <gtest/gtest.h>

using namespace pilgrim;

namespace {

// Rank 0: a 1 ns clock whose MPI_Init sync was at tick 5e9, MPI_Finalize at 15e9.
RankClock rank0() {
  RankClock c;
  c.ns_per_tick = 1.0;
  c.init = {5000000000, 5000000000, 0};
  c.finalize = {15000000000, 15000000000, 0};
  return c;
}

} // namespace

TEST(ClockAlignment, RankZeroIsItsOwnTimeline) {
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r0, r0, 5000000000), 0.0);
  EXPECT_DOUBLE_EQ(aligned_seconds(r0, r0, 7500000000), 2.5);
  EXPECT_DOUBLE_EQ(aligned_seconds(r0, r0, 4000000000), -1.0); // before MPI_Init
}

TEST(ClockAlignment, ConstantOffsetIsRemoved) {
  // Rank 1's clock reads 3 s late.
  RankClock r1 = rank0();
  r1.init = {8000000000, 5000000000, 40};
  r1.finalize = {18000000000, 15000000000, 40};
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 8000000000), 0.0);
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 13000000000), 5.0);
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 20000000000), 12.0); // extrapolated after finalize
}

TEST(ClockAlignment, DriftIsCorrectedLinearly) {
  // Rank 1 runs 100 ppm fast and starts 1 s ahead: over rank 0's 10 s it
  // counts 10.001 s.
  RankClock r1 = rank0();
  r1.init = {4000000000, 5000000000, 10};
  r1.finalize = {14001000000, 15000000000, 10};
  const RankClock r0 = rank0();
  EXPECT_NEAR(aligned_seconds(r1, r0, 4000000000), 0.0, 1e-12);
  EXPECT_NEAR(aligned_seconds(r1, r0, 14001000000), 10.0, 1e-12);
  EXPECT_NEAR(aligned_seconds(r1, r0, 9000500000), 5.0, 1e-9); // halfway
  EXPECT_NEAR(rank0_ticks(r1, r0, 9000500000), 10000000000.0, 1.0);
}

TEST(ClockAlignment, TscTicksAndRankZeroRate) {
  // Both ranks count TSC ticks of 0.25 ns; rank 1's TSC is 1000 ticks ahead.
  RankClock r0, r1;
  r0.source = r1.source = static_cast<uint8_t>(ClockSource::Tsc);
  r0.ns_per_tick = r1.ns_per_tick = 0.25;
  r0.init = {4000000000000000, 4000000000000000, 0};
  r0.finalize = {4000000040000000, 4000000040000000, 0};
  r1.init = {4000000000001000, 4000000000000000, 200};
  r1.finalize = {4000000040001000, 4000000040000000, 200};
  // 4e6 ticks after MPI_Init on rank 1 = 1 ms; the 2^52-sized ticks keep their precision.
  EXPECT_NEAR(aligned_seconds(r1, r0, 4000000004001000), 1e-3, 1e-15);
}

TEST(ClockAlignment, MissingFinalizeUsesTheRateRatio) {
  // Rank 1 ticks every 2 ns (rank 0: 1 ns), 3 s late at MPI_Init.
  RankClock r1;
  r1.ns_per_tick = 2.0;
  r1.init = {4000000000, 5000000000, 10}; // its tick 4e9 = rank 0's 5e9
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 4000000000), 0.0);
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 4500000000), 1.0); // 5e8 ticks x 2 ns
}

TEST(ClockAlignment, MissingInitUsesFinalize) {
  RankClock r1;
  r1.finalize = {18000000000, 15000000000, 10};
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 18000000000), 10.0);
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 9000000000), 1.0);
}

TEST(ClockAlignment, NoSyncAssumesTheClocksAgree) {
  RankClock r1; // ns_per_tick 1, no syncs (e.g. a mode that read no clock)
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 6000000000), 1.0);
}

TEST(ClockAlignment, SyncsAtTheSameTickFallBackToTheRateRatio) {
  RankClock r1 = rank0();
  r1.init = {8000000000, 5000000000, 40};
  r1.finalize = r1.init; // a zero-length run: no slope to take
  const RankClock r0 = rank0();
  EXPECT_DOUBLE_EQ(aligned_seconds(r1, r0, 9000000000), 1.0);
}

TEST(ClockAlignment, ExtremeTicksDoNotOverflow) {
  RankClock r1 = rank0();
  r1.init = {INT64_MIN, INT64_MAX, 0};
  r1.finalize = {INT64_MAX, INT64_MIN, 0};
  const RankClock r0 = rank0();
  const double s = aligned_seconds(r1, r0, 0);
  EXPECT_TRUE(s == s); // a number, no UB (UBSan build)
}
