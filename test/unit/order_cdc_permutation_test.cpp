// Permutation encoding (order/include/pilgrim/cdc_permutation.h), checked
// against the decoder rule written out naively here and against a longest
// increasing subsequence computed here: over every permutation of up to 7
// elements, and with a fixed-seed RNG over random and nearly sorted ones of
// many sizes, encode -> decode gives B back with exactly N - LIS moves.
#include "pilgrim/cdc_permutation.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace pilgrim::order {
namespace {

// The decoder rule, word for word: start from [0..N-1]; per move, in the
// order given, take the element with that index out of the current sequence
// and put it back `delay` positions later.
std::vector<uint32_t> naive_decode(size_t n, const std::vector<Move> &moves) {
  std::vector<uint32_t> seq(n);
  std::iota(seq.begin(), seq.end(), 0u);
  for (const Move &m : moves) {
    const auto at = std::find(seq.begin(), seq.end(), static_cast<uint32_t>(m.index));
    const auto from = static_cast<int64_t>(at - seq.begin());
    seq.erase(at);
    seq.insert(seq.begin() + (from + m.delay), static_cast<uint32_t>(m.index));
  }
  return seq;
}

// LIS length: O(N^2) for small N, patience sorting above (written here, not
// the library's).
size_t lis_length(const std::vector<uint32_t> &b) {
  if (b.size() <= 400) {
    std::vector<size_t> ending(b.size(), 1);
    size_t best = 0;
    for (size_t i = 0; i < b.size(); ++i) {
      for (size_t j = 0; j < i; ++j)
        if (b[j] < b[i])
          ending[i] = std::max(ending[i], ending[j] + 1);
      best = std::max(best, ending[i]);
    }
    return best;
  }
  std::vector<uint32_t> tails;
  for (uint32_t v : b) {
    auto it = std::lower_bound(tails.begin(), tails.end(), v);
    if (it == tails.end())
      tails.push_back(v);
    else
      *it = v;
  }
  return tails.size();
}

// Encodes b and checks everything the codec promises about it.
void check_round_trip(const std::vector<uint32_t> &b, bool naive = true) {
  const std::vector<Move> moves = encode_permutation(b);
  const std::string where = "N = " + std::to_string(b.size());
  ASSERT_EQ(moves.size(), b.size() - lis_length(b)) << where;
  for (size_t k = 0; k < moves.size(); ++k) {
    EXPECT_NE(moves[k].delay, 0) << where; // a move by 0 would not be needed
    if (k > 0) {
      EXPECT_LT(moves[k - 1].index, moves[k].index) << where;
    }
  }
  ASSERT_EQ(apply_moves(b.size(), moves), b) << where;
  if (naive) {
    ASSERT_EQ(naive_decode(b.size(), moves), b) << where;
  }
}

std::vector<uint32_t> identity(size_t n) {
  std::vector<uint32_t> b(n);
  std::iota(b.begin(), b.end(), 0u);
  return b;
}

TEST(CdcPermutation, EveryPermutationUpTo7) {
  for (size_t n = 0; n <= 7; ++n) {
    std::vector<uint32_t> b = identity(n);
    do {
      check_round_trip(b);
      if (testing::Test::HasFatalFailure())
        return;
    } while (std::next_permutation(b.begin(), b.end()));
  }
}

TEST(CdcPermutation, SortedAndReversed) {
  for (size_t n : {0, 1, 2, 10, 1000}) {
    EXPECT_TRUE(encode_permutation(identity(n)).empty());
    std::vector<uint32_t> reversed = identity(n);
    std::reverse(reversed.begin(), reversed.end());
    check_round_trip(reversed);
  }
}

TEST(CdcPermutation, RandomPermutations) {
  std::mt19937_64 rng(20240501);
  for (size_t n = 8; n <= 300; n += (n < 64 ? 1 : 37)) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<uint32_t> b = identity(n);
      std::shuffle(b.begin(), b.end(), rng);
      check_round_trip(b);
      if (HasFatalFailure())
        return;
    }
  }
  for (size_t n : {1000, 4096, 20000}) {
    std::vector<uint32_t> b = identity(n);
    std::shuffle(b.begin(), b.end(), rng);
    check_round_trip(b, n <= 4096);
  }
}

TEST(CdcPermutation, NearlySortedBySwapsAndMoves) {
  std::mt19937_64 rng(77);
  for (size_t n : {2, 3, 5, 8, 13, 50, 200, 1000, 5000, 100000}) {
    for (int k : {1, 2, 3, 5, 10, 40}) {
      for (int trial = 0; trial < (n > 5000 ? 1 : 5); ++trial) {
        std::uniform_int_distribution<size_t> pick(0, n - 1);
        std::vector<uint32_t> swapped = identity(n);
        for (int s = 0; s < k; ++s)
          std::swap(swapped[pick(rng)], swapped[pick(rng)]);
        std::vector<uint32_t> moved = identity(n);
        for (int s = 0; s < k; ++s) {
          const size_t from = pick(rng);
          const uint32_t v = moved[from];
          moved.erase(moved.begin() + static_cast<std::ptrdiff_t>(from));
          moved.insert(moved.begin() + static_cast<std::ptrdiff_t>(pick(rng) % n), v);
        }
        // k moves of single elements cost at most k moves back.
        EXPECT_LE(encode_permutation(moved).size(), static_cast<size_t>(k));
        check_round_trip(swapped, n <= 5000);
        check_round_trip(moved, n <= 5000);
        if (HasFatalFailure())
          return;
      }
    }
  }
}

TEST(CdcPermutation, MessagesWithTiesDecodeFromAnyArrivalOrder) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + trial % 60;
    std::uniform_int_distribution<int32_t> rank(0, 4);
    std::uniform_int_distribution<uint64_t> clock(0, n); // many equal clocks
    std::vector<MessageId> observed(n);
    for (auto &m : observed)
      m = MessageId{rank(rng), clock(rng)};
    const std::vector<Move> moves = encode_order(observed);
    std::vector<MessageId> received = observed;
    std::shuffle(received.begin(), received.end(), rng);
    ASSERT_EQ(decode_order(received, moves), observed) << "trial " << trial;
  }
}

TEST(CdcPermutation, BadMovesAreTraceErrors) {
  EXPECT_THROW(apply_moves(4, {{2, 1}, {1, 1}}), TraceError); // not ascending
  EXPECT_THROW(apply_moves(4, {{1, 1}, {1, 1}}), TraceError); // repeated
  EXPECT_THROW(apply_moves(4, {{4, -1}}), TraceError);        // index past N
  EXPECT_THROW(apply_moves(4, {{1, 3}}), TraceError);         // past the end
  EXPECT_THROW(apply_moves(4, {{1, -2}}), TraceError);        // before the start
  EXPECT_THROW(apply_moves(4, {{0, INT64_MIN}}), TraceError);
  EXPECT_THROW(apply_moves(4, {{3, INT64_MAX}}), TraceError);
  EXPECT_THROW(apply_moves(1, {{0, 1}, {1, 1}}), TraceError); // more moves than messages
  EXPECT_THROW(apply_moves(uint64_t{1} << 40, {}), TraceError);
  EXPECT_EQ(apply_moves(4, {{1, 2}, {3, -2}}), (std::vector<uint32_t>{3, 0, 2, 1}));
  try {
    apply_moves(4, {{1, 3}});
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_STREQ(e.what(), "CDC permutation: move 0 of index 1 by 3 leaves the 4 messages");
  }
}

TEST(CdcPermutation, EncoderRefusesWhatIsNoPermutation) {
  EXPECT_THROW(encode_permutation({0, 0}), std::invalid_argument);
  EXPECT_THROW(encode_permutation({0, 2}), std::invalid_argument);
}

} // namespace
} // namespace pilgrim::order
