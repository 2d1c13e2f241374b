// The gap replayed before each call signature (proxygen/timing_model.h).
#include "timing_model.h"

#include <gtest/gtest.h>

using namespace pilgrim;

namespace {

TimingStats stats(uint64_t n, double mean) {
  TimingStats s;
  s.n = n;
  s.mean = mean;
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
  // Every call lasts 1 us; t1 and t2 start every 100 us. A rank makes 22
  // calls, 10 of them t1: k = 2.2 calls per t1 period, so the gap before t1
  // (and t2) is 100 us / 2.2 - 1 us.
  for (auto &e : t.merged.cst)
    e.duration = stats(2, 1e-6);
  t.merged.cst[1].duration = stats(20, 1e-6);
  t.merged.cst[2].duration = stats(20, 1e-6);
  t.merged.cst[1].interval = stats(18, 100e-6);
  t.merged.cst[2].interval = stats(18, 100e-6);
  const std::vector<double> gaps = pilgrim::proxygen::estimate_gaps(t);
  ASSERT_EQ(gaps.size(), 4u);
  EXPECT_EQ(gaps[0], 0.0); // once per rank: no interval, no gap
  EXPECT_EQ(gaps[3], 0.0);
  const double k = 22.0 / 10.0;
  EXPECT_NEAR(gaps[1], 100e-6 / k - 1e-6, 1e-12);
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
