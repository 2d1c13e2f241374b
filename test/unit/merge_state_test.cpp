// The cross-rank merge (runtime/merge) on simulated ranks: every rank's call
// sequence survives the tree of merges, serialization between tree levels
// and the final rule-sharing pass; equal grammars are kept once and only
// equal ones (also when every hash collides); malformed bytes are errors.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "merge_state.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/sequitur.h"

namespace pilgrim {
namespace {

using Calls = std::vector<std::string>; // a rank's signatures, in order

RankTrace record(const Calls &calls, std::vector<CommInfo> comms = {}) {
  RankTrace rt;
  std::map<std::string, uint32_t> index;
  Sequitur seq;
  for (const std::string &c : calls) {
    auto it = index.emplace(c, static_cast<uint32_t>(rt.cst.size()));
    if (it.second) {
      CstEntry e;
      e.signature = c;
      rt.cst.push_back(e);
    }
    CstEntry &e = rt.cst[it.first->second];
    ++e.count;
    add_sample(e.duration, 1e-6);
    seq.append(it.first->second);
  }
  rt.grammar.rules = seq.rules();
  rt.comms = std::move(comms);
  return rt;
}

// A stencil-like rank: the same loop everywhere, boundary ranks differ.
Calls stencil_rank(uint32_t r, uint32_t nranks, int iterations) {
  Calls c{"init", "comm_rank"};
  for (int i = 0; i < iterations; ++i) {
    c.push_back(r == 0 ? "irecv null" : "irecv -1");
    c.push_back(r + 1 == nranks ? "irecv null" : "irecv +1");
    c.push_back(r == 0 ? "isend null" : "isend -1");
    c.push_back(r + 1 == nranks ? "isend null" : "isend +1");
    c.push_back("waitall 4");
    if (i % 10 == 9)
      c.push_back("allreduce");
  }
  c.push_back("finalize");
  return c;
}

// The tree MPI_Finalize runs: rank lo absorbs [mid, hi) after [lo, mid),
// states crossing "the network" as bytes.
MergeState tree(const std::vector<RankTrace> &ranks, uint32_t lo, uint32_t hi) {
  if (hi - lo == 1)
    return MergeState::of_rank(lo, ranks[lo]);
  uint32_t half = 1;
  while (half * 2 < hi - lo)
    half *= 2;
  MergeState left = tree(ranks, lo, lo + half);
  const MergeState right = MergeState::parse(tree(ranks, lo + half, hi).serialize());
  left.absorb(right);
  return left;
}

Calls expand_rank(const MergedTrace &m, uint32_t r) {
  const uint64_t root = m.roots.at(m.grammar_of(r));
  GrammarWalker w(m.rules, root);
  Calls out;
  uint64_t t;
  while (w.next(t))
    out.push_back(m.cst.at(t).signature);
  return out;
}

void expect_lossless(const std::vector<Calls> &calls, const MergedTrace &m) {
  ASSERT_NO_THROW(check_merged(m, static_cast<uint32_t>(calls.size())));
  uint64_t total = 0;
  for (uint32_t r = 0; r < calls.size(); ++r) {
    ASSERT_EQ(expand_rank(m, r), calls[r]) << "rank " << r;
    total += calls[r].size();
  }
  uint64_t counted = 0;
  for (const CstEntry &e : m.cst)
    counted += e.count;
  EXPECT_EQ(counted, total);
}

TEST(MergeState, StencilRanksShareGrammarsAndRules) {
  for (uint32_t nranks : {1u, 2u, 3u, 7u, 16u, 33u}) {
    std::vector<Calls> calls;
    std::vector<RankTrace> ranks;
    for (uint32_t r = 0; r < nranks; ++r) {
      calls.push_back(stencil_rank(r, nranks, 50));
      ranks.push_back(record(calls.back()));
    }
    MergeState s = tree(ranks, 0, nranks);
    EXPECT_EQ(s.grammars().size(), std::min(nranks, 3u)); // first, inner, last
    EXPECT_LE(s.rank_map().size(), 3u);
    const MergedTrace m = s.finish();
    expect_lossless(calls, m);
    EXPECT_EQ(m.roots.size(), std::min(nranks, 3u));
  }
}

TEST(MergeState, RandomRanksSurviveTheTree) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 40; ++round) {
    const uint32_t nranks = 1 + rng() % 40;
    const int families = 1 + static_cast<int>(rng() % 4);
    std::vector<Calls> family_calls;
    for (int f = 0; f < families; ++f) {
      Calls c;
      const size_t n = 1 + rng() % 300;
      for (size_t i = 0; i < n; ++i)
        c.push_back("f" + std::to_string(rng() % (2 + f)) + (rng() % 4 ? "" : "x"));
      family_calls.push_back(c);
    }
    std::vector<Calls> calls;
    std::vector<RankTrace> ranks;
    for (uint32_t r = 0; r < nranks; ++r) {
      calls.push_back(family_calls[rng() % families]);
      std::vector<CommInfo> comms;
      if (rng() % 3 == 0)
        comms.push_back(CommInfo{1, static_cast<int32_t>(r / 2), 2, -1});
      ranks.push_back(record(calls.back(), comms));
    }
    MergeState s = tree(ranks, 0, nranks);
    std::map<Calls, int> distinct;
    for (const Calls &c : calls)
      distinct[c] = 1;
    EXPECT_EQ(s.grammars().size(), distinct.size());
    const MergedTrace m = s.finish();
    expect_lossless(calls, m);
    for (uint32_t r = 0; r < nranks; ++r)
      EXPECT_EQ(m.comms_of(r), ranks[r].comms) << r;
  }
}

uint64_t constant_hash(const Grammar &) { return 7; }

TEST(MergeState, HashCollisionsNeverMergeDifferentGrammars) {
  MergeState::use_grammar_hash_for_testing(constant_hash);
  std::vector<Calls> calls;
  std::vector<RankTrace> ranks;
  for (uint32_t r = 0; r < 12; ++r) {
    calls.push_back(stencil_rank(r % 4, 4, 20 + static_cast<int>(r % 3)));
    ranks.push_back(record(calls.back()));
  }
  MergeState s = tree(ranks, 0, 12);
  MergeState::use_grammar_hash_for_testing(nullptr);
  std::map<Calls, int> distinct;
  for (const Calls &c : calls)
    distinct[c] = 1;
  EXPECT_EQ(s.grammars().size(), distinct.size());
  expect_lossless(calls, s.finish());
}

TEST(MergeState, StateSizeDoesNotGrowWithRanks) {
  size_t small = 0;
  for (uint32_t nranks : {9u, 1000u}) {
    std::vector<RankTrace> ranks;
    for (uint32_t r = 0; r < nranks; ++r)
      ranks.push_back(record(stencil_rank(r, nranks, 30)));
    const MergeState s = tree(ranks, 0, nranks);
    if (nranks == 9)
      small = s.serialize().size();
    else
      EXPECT_LE(s.serialize().size(), small + small / 10); // only counts grow, by bytes
  }
}

TEST(MergeState, MalformedBytesAreErrors) {
  std::vector<RankTrace> ranks;
  for (uint32_t r = 0; r < 5; ++r)
    ranks.push_back(record(stencil_rank(r, 5, 12), {CommInfo{0, 1, 2, -1}}));
  const std::string good = tree(ranks, 0, 5).serialize();
  ASSERT_NO_THROW(MergeState::parse(good));
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(MergeState::parse(good.substr(0, n)), TraceError) << n;
  std::mt19937_64 rng(9);
  for (int i = 0; i < 3000; ++i) {
    std::string bad = good;
    bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
    try {
      MergeState s = MergeState::parse(bad);
      (void)s.finish();
    } catch (const TraceError &) {
    }
  }
}

} // namespace
} // namespace pilgrim
