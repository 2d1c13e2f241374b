// Cartesian rank codes (model/include/pilgrim/cartesian_offset.h): every
// pair of ranks of random grids round-trips, the code is the same for every
// rank of a periodic grid, and bad offsets decode to nothing.
#include "pilgrim/cartesian_offset.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/value_codes.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace pilgrim {
namespace {

struct Grid {
  std::vector<int> dims, periods;
  int size() const {
    int n = 1;
    for (int d : dims)
      n *= d;
    return n;
  }
  int ndims() const { return static_cast<int>(dims.size()); }
};

Grid random_grid(std::mt19937 &rng) {
  Grid g;
  const int ndims = std::uniform_int_distribution<int>(0, 4)(rng);
  for (int i = 0; i < ndims; ++i) {
    g.dims.push_back(std::uniform_int_distribution<int>(1, 5)(rng));
    g.periods.push_back(std::uniform_int_distribution<int>(0, 1)(rng));
  }
  return g;
}

TEST(CartesianOffset, EveryPairRoundTrips) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    const Grid g = random_grid(rng);
    for (int me = 0; me < g.size(); ++me) {
      for (int peer = 0; peer < g.size(); ++peer) {
        int64_t y = 0, back = -1;
        ASSERT_TRUE(cart_encode(g.ndims(), g.dims.data(), g.periods.data(), me, peer, y));
        ASSERT_TRUE(cart_decode(g.ndims(), g.dims.data(), g.periods.data(), me, y, back));
        EXPECT_EQ(back, peer) << "round " << round << " me " << me << " y " << y;
        EXPECT_EQ(y == 0, me == peer);
      }
    }
  }
}

TEST(CartesianOffset, PeriodicNeighborsHaveOneCode) {
  const std::vector<int> dims = {3, 4, 5}, periods = {1, 1, 1};
  const int strides[3] = {20, 5, 1};
  for (int axis = 0; axis < 3; ++axis) {
    for (int step : {-1, 1}) {
      int64_t first = 0;
      for (int me = 0; me < 60; ++me) {
        int c[3] = {me / 20, (me / 5) % 4, me % 5};
        c[axis] = (c[axis] + step + dims[axis]) % dims[axis];
        const int peer = c[0] * strides[0] + c[1] * strides[1] + c[2] * strides[2];
        int64_t y = 0;
        ASSERT_TRUE(cart_encode(3, dims.data(), periods.data(), me, peer, y));
        if (me == 0)
          first = y;
        EXPECT_EQ(y, first) << "axis " << axis << " step " << step << " rank " << me;
      }
    }
  }
}

TEST(CartesianOffset, DocumentedExample) {
  // FORMAT.md: 4 x 4 periodic, (0, 2) -> (3, 2) is y = -4, code 34.
  const int dims[2] = {4, 4}, periods[2] = {1, 1};
  int64_t y = 0;
  ASSERT_TRUE(cart_encode(2, dims, periods, 0 * 4 + 2, 3 * 4 + 2, y));
  EXPECT_EQ(y, -4);
  EXPECT_EQ(sig::rank_cartesian(y), 34u);
  const RankCode rc = decode_rank_code(34);
  EXPECT_EQ(rc.kind, RankCode::Cartesian);
  EXPECT_EQ(rc.value, -4);
}

TEST(CartesianOffset, CodesDoNotCollideWithOtherKinds) {
  for (int64_t x = -50; x <= 50; ++x) {
    EXPECT_EQ(decode_rank_code(sig::rank_cartesian(x)).kind, RankCode::Cartesian);
    EXPECT_EQ(decode_rank_code(sig::rank_cartesian(x)).value, x);
    EXPECT_EQ(decode_rank_code(sig::rank_relative(x)).kind, RankCode::Relative);
    EXPECT_EQ(decode_rank_code(sig::rank_relative(x)).value, x);
    if (x >= 0) {
      EXPECT_EQ(decode_rank_code(sig::rank_absolute(x)).kind, RankCode::Absolute);
      EXPECT_EQ(decode_rank_code(sig::rank_absolute(x)).value, x);
    }
  }
}

TEST(CartesianOffset, BadOffsetsDecodeToNothing) {
  const int dims[2] = {3, 3}, open[2] = {0, 0};
  int64_t peer = 0;
  // From the corner (0, 0) one step down in an open grid leaves it.
  int64_t y = 0;
  ASSERT_TRUE(cart_encode(2, dims, open, 8, 0, y)); // (2,2) -> (0,0): digits (-2,-2)
  EXPECT_FALSE(cart_decode(2, dims, open, 0, y, peer));
  // Digits left over, extreme values, a caller outside the grid.
  EXPECT_FALSE(cart_decode(2, dims, open, 0, 1000, peer));
  EXPECT_FALSE(cart_decode(2, dims, open, 0, INT64_MIN, peer));
  EXPECT_FALSE(cart_decode(2, dims, open, 0, INT64_MAX, peer));
  EXPECT_FALSE(cart_decode(2, dims, open, 9, 0, peer));
  EXPECT_FALSE(cart_decode(2, dims, open, -1, 0, peer));
  EXPECT_FALSE(cart_decode(-1, dims, open, 0, 0, peer));
}

} // namespace
} // namespace pilgrim
