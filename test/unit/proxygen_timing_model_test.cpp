// The gap replayed before each call signature (proxygen/timing_model.h).
#include "timing_model.h"

#include <gtest/gtest.h>

using namespace pilgrim;

namespace {

TimingStats stats(uint64_t n, double mean, double min = 0) {
  TimingStats s;
  s.n = n;
  s.mean = mean;
  s.min = min;
  return s;
}

// Two ranks with one grammar: t0, then (t1 t2)^10, then t3.
Trace loop_trace() {
  Trace t;
  t.header.nranks = 2;
  t.merged.cst.resize(4);
  t.merged.rules.rules = {
      {GrammarSymbol::terminal(0), GrammarSymbol::nonterminal(1, 10), GrammarSymbol::terminal(3)},
      {GrammarSymbol::terminal(1), GrammarSymbol::terminal(2)}};
  t.merged.roots = {0};
  t.merged.rank_map = {RankRange{0, 2, 0}};
  return t;
}

} // namespace

TEST(ProxygenTimingModel, LoopGapsShareTheIterationTime) {
  Trace t = loop_trace();
  // Every call lasts 1 us; t1 and t2 start every 100 us. The 9 intervals of
  // t1 on a rank cover 18 calls (9 t1, 9 t2), so the 98 us of computation
  // per iteration go half before t1, half before t2; t0 and t3 get none.
  for (auto &e : t.merged.cst)
    e.duration = stats(2, 1e-6, 1e-6);
  t.merged.cst[1].duration = stats(20, 1e-6, 1e-6);
  t.merged.cst[2].duration = stats(20, 1e-6, 1e-6);
  t.merged.cst[1].interval = stats(18, 100e-6);
  t.merged.cst[2].interval = stats(18, 100e-6);
  const std::vector<double> gaps = pilgrim::proxygen::estimate_gaps(t);
  ASSERT_EQ(gaps.size(), 4u);
  EXPECT_EQ(gaps[0], 0.0); // once per rank: no interval, no gap
  EXPECT_EQ(gaps[3], 0.0);
  EXPECT_NEAR(gaps[1], 49e-6, 1e-12);
  EXPECT_NEAR(gaps[2], gaps[1], 1e-12);
}

TEST(ProxygenTimingModel, NoTimingNoGaps) {
  const std::vector<double> gaps = pilgrim::proxygen::estimate_gaps(loop_trace());
  for (double g : gaps)
    EXPECT_EQ(g, 0.0);
}

TEST(ProxygenTimingModel, GapsAreNeverNegative) {
  Trace t = loop_trace();
  for (auto &e : t.merged.cst)
    e.duration = stats(20, 1e-3);
  t.merged.cst[1].interval = stats(18, 1e-6);
  for (double g : pilgrim::proxygen::estimate_gaps(t))
    EXPECT_GE(g, 0.0);
}

// Rank 0 (grammar 0): (t0 t1)^10, a master that sends (t0) and then waits
// 90 us in a receive (t1); rank 1 (grammar 1): (t2 t3)^10, a worker that
// receives (t2), computes 99 us and sends (t3). The master's waiting is its
// receive's duration, not computation: it gets no gap.
TEST(ProxygenTimingModel, WaitingInACallIsNotComputation) {
  Trace t;
  t.header.nranks = 2;
  t.merged.cst.resize(4);
  t.merged.rules.rules = {{GrammarSymbol::nonterminal(2, 10)},
                          {GrammarSymbol::nonterminal(3, 10)},
                          {GrammarSymbol::terminal(0), GrammarSymbol::terminal(1)},
                          {GrammarSymbol::terminal(2), GrammarSymbol::terminal(3)}};
  t.merged.roots = {0, 1};
  t.merged.rank_map = {RankRange{0, 1, 0}, RankRange{1, 1, 1}};
  for (auto &e : t.merged.cst) {
    e.duration = stats(10, 0.5e-6, 0.5e-6);
    e.interval = stats(9, 100e-6, 100e-6);
  }
  t.merged.cst[1].duration = stats(10, 99e-6, 99e-6);
  const std::vector<double> gaps = pilgrim::proxygen::estimate_gaps(t);
  EXPECT_NEAR(gaps[0] + gaps[1], 0.5e-6, 1e-12);
  EXPECT_NEAR(gaps[2] + gaps[3], 99e-6, 1e-12);
}

// Two ranks, one grammar: (t0)^10, a collective after a computation of 60 us
// on rank 0 and 100 us on rank 1, so rank 0 waits 40 us in it and rank 1
// none; the period is 100 us on both. Every rank replays the slower rank's
// computation, which sets the wall time.
TEST(ProxygenTimingModel, ImbalanceReplaysTheSlowestRank) {
  Trace t;
  t.header.nranks = 2;
  t.merged.cst.resize(1);
  t.merged.rules.rules = {{GrammarSymbol::terminal(0, 10)}};
  t.merged.roots = {0};
  t.merged.rank_map = {RankRange{0, 2, 0}};
  t.merged.cst[0].duration = stats(20, 20e-6, 0);
  t.merged.cst[0].interval = stats(18, 100e-6, 100e-6);
  EXPECT_NEAR(pilgrim::proxygen::estimate_gaps(t)[0], 100e-6, 1e-12);
  // Made by one rank only, the same spread is that rank's own variation.
  t.merged.rank_map = {RankRange{0, 1, 0}};
  t.header.nranks = 1;
  t.merged.cst[0].duration = stats(10, 20e-6, 0);
  t.merged.cst[0].interval = stats(9, 100e-6, 100e-6);
  EXPECT_NEAR(pilgrim::proxygen::estimate_gaps(t)[0], 80e-6, 1e-12);
}
