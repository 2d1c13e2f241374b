// Grammar validation and expansion; timing statistics merge.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "pilgrim/grammar_walker.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {
namespace {

GrammarSymbol t(int64_t v, uint64_t e = 1) { return GrammarSymbol{v, e}; }
GrammarSymbol r(uint64_t k, uint64_t e = 1) { return GrammarSymbol{rule_symbol_value(k), e}; }

std::vector<uint64_t> expand(const Grammar &g, size_t limit = 1000) {
  std::vector<uint64_t> out;
  GrammarWalker w(g);
  uint64_t x;
  while (out.size() < limit && w.next(x))
    out.push_back(x);
  return out;
}

TEST(FormatGrammar, Expansion) {
  Grammar g;
  g.rules = {{t(0), r(1, 2), t(3, 2)}, {t(1), r(2, 3)}, {t(2)}};
  validate_grammar(g, 4);
  EXPECT_EQ(expand(g), (std::vector<uint64_t>{0, 1, 2, 2, 2, 1, 2, 2, 2, 3, 3}));
  EXPECT_EQ(expanded_length(g), 11u);
  EXPECT_EQ(rule_lengths(g), (std::vector<uint64_t>{11, 4, 1}));
  EXPECT_EQ(expanded_length(Grammar{}), 0u);
  EXPECT_TRUE(expand(Grammar{}).empty());
}

TEST(FormatGrammar, Validation) {
  Grammar g;
  g.rules = {{t(0), r(1)}, {t(5)}};
  EXPECT_THROW(validate_grammar(g, 5), TraceError); // terminal out of range
  g.rules = {{r(2)}, {t(0)}};
  EXPECT_THROW(validate_grammar(g, 1), TraceError); // rule out of range
  g.rules = {{r(1)}, {r(2)}, {r(1)}};
  EXPECT_THROW(validate_grammar(g, 1), TraceError); // cycle
  g.rules = {{r(0)}};
  EXPECT_THROW(validate_grammar(g, 1), TraceError); // self
  g.rules = {{t(0, 0)}};
  EXPECT_THROW(validate_grammar(g, 1), TraceError); // exp 0
  g.rules = {{r(1), r(1, 3)}, {t(0)}};              // shared sub-rule: fine
  EXPECT_NO_THROW(validate_grammar(g, 1));
}

TEST(FormatGrammar, HugeRepetitionsAndEmptyRulesDoNotHang) {
  Grammar g;
  g.rules = {{r(1, UINT64_MAX), t(0)}, {}}; // an empty rule repeated 2^64-1 times
  validate_grammar(g, 1);
  EXPECT_EQ(expand(g), (std::vector<uint64_t>{0}));
  g.rules = {{r(1, UINT64_MAX)}, {t(0, UINT64_MAX)}};
  EXPECT_EQ(expanded_length(g), UINT64_MAX); // saturates
  EXPECT_EQ(expand(g, 5).size(), 5u);
}

TEST(FormatGrammar, DeepChainsUseNoRecursion) {
  Grammar g;
  const size_t depth = 200000;
  for (size_t k = 0; k + 1 < depth; ++k)
    g.rules.push_back({r(k + 1)});
  g.rules.push_back({t(0, 2)});
  validate_grammar(g, 1);
  EXPECT_EQ(expanded_length(g), 2u);
  EXPECT_EQ(expand(g), (std::vector<uint64_t>{0, 0}));
  g.rules.back() = {r(0)}; // a cycle through the whole chain
  EXPECT_THROW(validate_grammar(g, 1), TraceError);
}

TEST(FormatGrammar, WalkerSurvivesUnvalidatedGrammars) {
  Grammar g;
  g.rules = {{t(0), r(7, 3), t(1)}}; // rule 7 does not exist: skipped
  EXPECT_EQ(expand(g), (std::vector<uint64_t>{0, 1}));
  g.rules = {{r(1)}, {r(0)}};
  EXPECT_THROW(GrammarWalker{g}, TraceError);
  EXPECT_THROW(expanded_length(g), TraceError);
}

TEST(FormatTimingStats, WelfordMergeMatchesDirectComputation) {
  const std::vector<double> xs = {1.0, 2.0, 4.0, 8.0, 3.5, 0.25, 9.0};
  TimingStats all, a, b;
  for (size_t i = 0; i < xs.size(); ++i) {
    add_sample(all, xs[i]);
    add_sample(i < 3 ? a : b, xs[i]);
  }
  TimingStats merged = a;
  merge_stats(merged, b);
  EXPECT_EQ(merged.n, all.n);
  EXPECT_NEAR(merged.mean, all.mean, 1e-12);
  EXPECT_NEAR(merged.m2, all.m2, 1e-9);
  EXPECT_EQ(merged.min, 0.25);
  EXPECT_EQ(merged.max, 9.0);
  double mean = 0;
  for (double x : xs)
    mean += x / static_cast<double>(xs.size());
  double ss = 0;
  for (double x : xs)
    ss += (x - mean) * (x - mean);
  EXPECT_NEAR(stddev(all), std::sqrt(ss / static_cast<double>(xs.size() - 1)), 1e-12);
  TimingStats empty;
  merge_stats(empty, TimingStats{});
  EXPECT_EQ(empty.n, 0u);
  EXPECT_EQ(stddev(empty), 0.0);
}

} // namespace
} // namespace pilgrim
