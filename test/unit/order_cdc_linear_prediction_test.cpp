// Linear predictive encoding of the index columns
// (order/include/pilgrim/cdc_linear_prediction.h): the paper's example
// (§3.4), round trips, and overflow as an error rather than UB.
#include "pilgrim/cdc_linear_prediction.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

namespace pilgrim::order {
namespace {

TEST(CdcLinearPrediction, PaperExample) {
  // §3.4: {1, 2, 4, 6, 8, 12, 17} -> {1, 0, 1, 0, 0, 2, 1}.
  const std::vector<int64_t> x = {1, 2, 4, 6, 8, 12, 17};
  const std::vector<int64_t> e = {1, 0, 1, 0, 0, 2, 1};
  EXPECT_EQ(lp_encode(x), e);
  EXPECT_EQ(lp_decode(e), x);
}

TEST(CdcLinearPrediction, StraightLinesPredictToZero) {
  // x_n = 5 + 3n: after the first two, every residual is 0.
  std::vector<int64_t> x;
  for (int n = 0; n < 10; ++n)
    x.push_back(5 + 3 * n);
  const std::vector<int64_t> e = lp_encode(x);
  EXPECT_EQ(e[0], 5);  // x_1 - 0
  EXPECT_EQ(e[1], -2); // 8 - 2*5 + 0
  for (size_t n = 2; n < e.size(); ++n)
    EXPECT_EQ(e[n], 0);
  EXPECT_TRUE(lp_encode({}).empty());
  EXPECT_TRUE(lp_decode({}).empty());
}

TEST(CdcLinearPrediction, RandomRoundTrips) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<int64_t> x(static_cast<size_t>(trial));
    int64_t v = 0;
    for (auto &xi : x) {
      v += static_cast<int64_t>(rng() % 1000);
      xi = v;
    }
    ASSERT_EQ(lp_decode(lp_encode(x)), x);
  }
}

TEST(CdcLinearPrediction, OverflowIsAnError) {
  EXPECT_THROW(lp_decode({INT64_MAX, INT64_MAX}), TraceError);
  EXPECT_THROW(lp_decode({INT64_MIN, 0, 0}), TraceError);
  EXPECT_THROW(lp_encode({INT64_MAX / 2 + 1, 0}), std::invalid_argument);
  EXPECT_THROW(lp_encode({INT64_MIN, 0}), std::invalid_argument);
  EXPECT_EQ(lp_encode({INT64_MIN}), (std::vector<int64_t>{INT64_MIN})); // e_1 = x_1
  // The largest values the reader can meet stay exact.
  const std::vector<int64_t> big = {INT64_MAX / 4, INT64_MAX / 4 + 1, INT64_MAX / 4 + 3};
  EXPECT_EQ(lp_decode(lp_encode(big)), big);
}

} // namespace
} // namespace pilgrim::order
