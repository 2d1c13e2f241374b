// Rank sets (bytes/include/pilgrim/rank_sets.h) and the two sections built
// on them: stencil-shaped rank maps take the same bytes at any scale, random
// maps and communicator tables round-trip, malformed sets are errors.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "pilgrim/file_layout.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/rank_sets.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {
namespace {

// Grammar of a rank in a px x py (x py2) non-periodic grid: its boundary class.
uint32_t grid_class(uint32_t r, uint32_t px, uint32_t py, uint32_t pz) {
  const uint32_t x = r % px, y = (r / px) % py, z = r / (px * py);
  auto c = [](uint32_t v, uint32_t n) { return n == 1 ? 0u : v == 0 ? 0u : v + 1 == n ? 2u : 1u; };
  return c(x, px) + 3 * c(y, py) + 9 * c(z, pz);
}

std::vector<RankRange> map_of(uint32_t nranks, uint32_t px, uint32_t py, uint32_t pz) {
  std::vector<RankRange> m;
  for (uint32_t r = 0; r < nranks; ++r) {
    const uint32_t g = grid_class(r, px, py, pz);
    if (!m.empty() && m.back().grammar == g)
      ++m.back().count;
    else
      m.push_back(RankRange{r, 1, g});
  }
  return m;
}

TEST(RankSets, StencilMapsHaveConstantSize) {
  const size_t small2 = encode_rank_map(map_of(9, 3, 3, 1)).size();
  const size_t small3 = encode_rank_map(map_of(27, 3, 3, 3)).size();
  for (uint32_t n : {4u, 16u, 64u, 256u}) {
    const std::vector<RankRange> m2 = map_of(n * n, n, n, 1);
    const std::string b2 = encode_rank_map(m2);
    EXPECT_LE(b2.size(), small2 + 9 * 4) << n; // only counts and strides grow, by bytes
    EXPECT_EQ(parse_rank_map(b2, n * n), m2);
    if (n <= 64) {
      const std::vector<RankRange> m3 = map_of(n * n * n, n, n, n);
      const std::string b3 = encode_rank_map(m3);
      EXPECT_LE(b3.size(), small3 + 27 * 6) << n;
      EXPECT_EQ(parse_rank_map(b3, n * n * n), m3);
    }
  }
}

TEST(RankSets, RandomMapsRoundTrip) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 300; ++round) {
    const uint32_t nranks = 1 + rng() % 500;
    const uint32_t ngrammars = 1 + rng() % 6;
    std::vector<RankRange> m;
    for (uint32_t r = 0; r < nranks; ++r) {
      const uint32_t g = round % 2 ? (r * 7 + r / 13) % ngrammars : rng() % ngrammars;
      if (!m.empty() && m.back().grammar == g)
        ++m.back().count;
      else
        m.push_back(RankRange{r, 1, g});
    }
    ASSERT_EQ(parse_rank_map(encode_rank_map(m), nranks), m) << round;
  }
}

TEST(RankSets, CommunicatorTablesRoundTripAndShare) {
  // A dup and a Cart_create of MPI_COMM_WORLD on every rank but one in five:
  // the same table relative to the world rank everywhere, one entry.
  std::vector<RankComms> comms;
  for (uint32_t r = 0; r < 1000; ++r)
    if (r % 5 != 3)
      comms.push_back(RankComms{r,
                                {CommInfo{0, static_cast<int32_t>(r), 1000, -1},
                                 CommInfo{1, static_cast<int32_t>(r), 1000, -1}}});
  const std::string b = encode_rank_comms(comms, kFormatVersion);
  EXPECT_EQ(parse_rank_comms(b, 1000, kFormatVersion), comms);
  EXPECT_LT(b.size(), 40u);
  // Rows of a split: one table per row (offset -row start), still round-trips.
  comms.clear();
  for (uint32_t r = 0; r < 1000; ++r)
    comms.push_back(RankComms{r, {CommInfo{2, static_cast<int32_t>(r % 10), 10, -1}}});
  EXPECT_EQ(parse_rank_comms(encode_rank_comms(comms, kFormatVersion), 1000, kFormatVersion),
            comms);
}

TEST(RankSets, MalformedSetsAreErrors) {
  auto bad = [](std::string bytes, uint32_t nranks) {
    try {
      (void)parse_rank_map(bytes, nranks);
    } catch (const TraceError &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string s;
  ByteWriter w(s);
  w.varint(1);
  w.varint(0);
  put_box(w, RankBox{2, {RankDim{3, 1}, RankDim{2, 2}}}); // stride 2 overlaps a run of 3
  EXPECT_NE(bad(s, 100).find("overlaps"), std::string::npos);
  s.clear();
  w.varint(1);
  w.varint(0);
  put_box(w, RankBox{5, {RankDim{10, 1}}});
  EXPECT_NE(bad(s, 10).find("past rank"), std::string::npos);
  s.clear();
  w.varint(1);
  w.varint(0);
  put_box(w, RankBox{0, {RankDim{2, 1}, RankDim{1u << 25, 4}}});
  EXPECT_NE(bad(s, UINT32_MAX).find("runs"), std::string::npos); // bounded expansion
  const std::string good = encode_rank_map(map_of(64, 8, 8, 1));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_NE(bad(good.substr(0, n), 64), "") << n;
}

} // namespace
} // namespace pilgrim
