// The figures pilgrim-stats --timing prints (analyses/timing_quality.h):
// largest errors and PSNR of one stream, merged over ranks; and which
// functions are blocking collectives (analyses/collective_call.h).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pilgrim/collective_call.h"
#include "pilgrim/timing_quality.h"

namespace pilgrim {
namespace {

TEST(TimingQuality, ExactIsInfinitePsnr) {
  const std::vector<int64_t> s = {100, 200, 300}, e = {150, 260, 390};
  const TimesQuality q = times_quality(s, e, s, e);
  EXPECT_EQ(q.duration.n, 3u);
  EXPECT_EQ(q.gap.n, 2u); // the first call has no gap
  EXPECT_EQ(q.duration.max_absolute, 0);
  EXPECT_EQ(q.duration.max_relative, 0);
  EXPECT_TRUE(std::isinf(q.duration.psnr()) && q.duration.psnr() > 0);
  EXPECT_EQ(q.max_time_error, 0);
}

TEST(TimingQuality, PsnrIsRangeOverRmse) {
  // Exact durations 50, 60, 90 (range 40); decoded 52, 60, 88: errors 2, 0,
  // 2, RMSE sqrt(8/3). Gaps from the previous end: 50, 40 exact, 48, 40
  // decoded.
  const std::vector<int64_t> s = {100, 200, 300}, e = {150, 260, 390};
  const std::vector<int64_t> ds = {100, 200, 300}, de = {152, 260, 388};
  const TimesQuality q = times_quality(ds, de, s, e);
  EXPECT_DOUBLE_EQ(q.duration.max_absolute, 2);
  EXPECT_DOUBLE_EQ(q.duration.max_relative, 2.0 / 50);
  EXPECT_NEAR(q.duration.psnr(), 20 * std::log10(40 / std::sqrt(8.0 / 3)), 1e-9);
  EXPECT_EQ(q.max_time_error, 2);
  EXPECT_DOUBLE_EQ(q.gap.max_absolute, 2);
  EXPECT_DOUBLE_EQ(q.gap.max_relative, 2.0 / 50);
}

TEST(TimingQuality, DriftShowsInTimesNotGaps) {
  // Every start and end 1 tick late from the second call on: one gap (from
  // the previous end) is off by 1, every later time stays 1 off (no
  // accumulation to see).
  const std::vector<int64_t> s = {0, 10, 20, 30}, e = {5, 15, 25, 35};
  const std::vector<int64_t> ds = {0, 11, 21, 31}, de = {5, 16, 26, 36};
  const TimesQuality q = times_quality(ds, de, s, e);
  EXPECT_EQ(q.max_time_error, 1);
  EXPECT_DOUBLE_EQ(q.gap.max_absolute, 1);
  EXPECT_DOUBLE_EQ(q.duration.max_absolute, 0);
}

TEST(TimingQuality, MergeKeepsWorstAndPoolsRange) {
  StreamQuality a, b;
  a.add_value(10, 10);
  a.add_value(21, 20);
  b.add_value(100, 100);
  b.add_value(97, 100);
  a.add(b);
  EXPECT_EQ(a.n, 4u);
  EXPECT_DOUBLE_EQ(a.max_absolute, 3);
  EXPECT_DOUBLE_EQ(a.max_relative, 0.05);
  EXPECT_DOUBLE_EQ(a.min_exact, 10);
  EXPECT_DOUBLE_EQ(a.max_exact, 100);
  EXPECT_NEAR(a.rmse(), std::sqrt(10.0 / 4), 1e-12);
}

TEST(TimingQuality, UndefinedPsnr) {
  StreamQuality empty;
  EXPECT_TRUE(std::isnan(empty.psnr()));
  StreamQuality flat; // range 0, yet not exact
  flat.add_value(6, 5);
  flat.add_value(5, 5);
  EXPECT_TRUE(std::isnan(flat.psnr()));
  StreamQuality zero; // a zero value decoded as non-zero: infinitely wrong
  zero.add_value(1, 0);
  EXPECT_TRUE(std::isinf(zero.max_relative));
}

TEST(CollectiveCall, BlockingCollectivesOnly) {
  EXPECT_TRUE(is_blocking_collective("MPI_Barrier"));
  EXPECT_TRUE(is_blocking_collective("MPI_Allreduce"));
  EXPECT_TRUE(is_blocking_collective("MPI_Allreduce_c"));
  EXPECT_TRUE(is_blocking_collective("MPI_Reduce_scatter_block"));
  EXPECT_TRUE(is_blocking_collective("MPI_Neighbor_alltoallw"));
  EXPECT_FALSE(is_blocking_collective("MPI_Iallreduce"));
  EXPECT_FALSE(is_blocking_collective("MPI_Allreduce_init"));
  EXPECT_FALSE(is_blocking_collective("MPI_Send"));
  EXPECT_FALSE(is_blocking_collective("MPI_Wait"));
  EXPECT_FALSE(is_blocking_collective("_c"));
  EXPECT_FALSE(is_blocking_collective(""));
}

} // namespace
} // namespace pilgrim
