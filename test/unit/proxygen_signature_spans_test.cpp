// The calls covered by each signature's intervals (proxygen/signature_spans.h),
// checked against the expanded sequence.
#include "signature_spans.h"

#include <gtest/gtest.h>

#include "pilgrim/grammar_walker.h"

using namespace pilgrim;

namespace {

// Calls and summed weights in (first, last] of each terminal, by expansion.
std::map<uint64_t, proxygen::SignatureSpan> expanded_spans(const Grammar &g, uint64_t root,
                                                         const std::vector<double> &weight) {
  Grammar rooted = g;
  std::swap(rooted.rules[0], rooted.rules[root]);
  for (auto &rule : rooted.rules)
    for (auto &s : rule)
      if (s.is_rule() && (s.rule() == 0 || s.rule() == root))
        s = GrammarSymbol::nonterminal(s.rule() == 0 ? root : 0, s.exp);
  std::vector<uint64_t> seq;
  GrammarWalker walker(rooted);
  uint64_t t;
  while (walker.next(t))
    seq.push_back(t);
  std::map<uint64_t, proxygen::SignatureSpan> spans;
  std::map<uint64_t, size_t> first, last;
  for (size_t i = 0; i < seq.size(); ++i) {
    first.emplace(seq[i], i);
    last[seq[i]] = i;
  }
  for (const auto &f : first) {
    proxygen::SignatureSpan s;
    for (size_t i = f.second + 1; i <= last[f.first]; ++i) {
      s.calls += 1;
      s.weight += weight[seq[i]];
    }
    spans[f.first] = s;
  }
  return spans;
}

} // namespace

TEST(ProxygenSignatureSpans, MatchTheExpansion) {
  // R0 -> t0 R1^3 t4 R2 ; R1 -> t1 R2^2 t2 ; R2 -> t3 t1^2
  Grammar g;
  g.rules = {{GrammarSymbol::terminal(0), GrammarSymbol::nonterminal(1, 3),
              GrammarSymbol::terminal(4), GrammarSymbol::nonterminal(2)},
             {GrammarSymbol::terminal(1), GrammarSymbol::nonterminal(2, 2), GrammarSymbol::terminal(2)},
             {GrammarSymbol::terminal(3), GrammarSymbol::terminal(1, 2)}};
  const std::vector<double> weight = {1, 10, 100, 1000, 10000};
  for (uint64_t root : {0, 1, 2}) {
    const auto got = proxygen::signature_spans(g, root, weight);
    const auto want = expanded_spans(g, root, weight);
    ASSERT_EQ(got.size(), want.size()) << "root " << root;
    for (const auto &w : want) {
      ASSERT_TRUE(got.count(w.first)) << "root " << root << " terminal " << w.first;
      EXPECT_EQ(got.at(w.first).calls, w.second.calls) << "root " << root << " terminal " << w.first;
      EXPECT_EQ(got.at(w.first).weight, w.second.weight) << "root " << root << " terminal " << w.first;
    }
  }
}

TEST(ProxygenSignatureSpans, CycleIsAnError) {
  Grammar g;
  g.rules = {{GrammarSymbol::nonterminal(1)}, {GrammarSymbol::nonterminal(0)}};
  EXPECT_ANY_THROW(proxygen::signature_spans(g, 0, {}));
}

// Random DAG grammars (rule i refers only to rules above i, so every rule is
// reachable from some root without cycles), random weights: every root's
// spans equal the expansion's. Weights are small integers, so the sums are
// exact in doubles whatever the order of additions.
TEST(ProxygenSignatureSpans, RandomGrammarsMatchTheExpansion) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  auto next = [&state](uint64_t bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % bound;
  };
  for (int trial = 0; trial < 200; ++trial) {
    const uint64_t nrules = 1 + next(5), nterminals = 1 + next(8);
    Grammar g;
    g.rules.resize(nrules);
    for (uint64_t r = 0; r < nrules; ++r) {
      const uint64_t len = 1 + next(6);
      for (uint64_t k = 0; k < len; ++k) {
        const uint64_t exp = 1 + next(3);
        if (r + 1 < nrules && next(3) == 0)
          g.rules[r].push_back(GrammarSymbol::nonterminal(r + 1 + next(nrules - r - 1), exp));
        else
          g.rules[r].push_back(
              GrammarSymbol::terminal(static_cast<uint32_t>(next(nterminals)), exp));
      }
    }
    std::vector<double> weight(nterminals);
    for (double &w : weight)
      w = static_cast<double>(next(100));
    for (uint64_t root = 0; root < nrules; ++root) {
      const auto got = proxygen::signature_spans(g, root, weight);
      const auto want = expanded_spans(g, root, weight);
      ASSERT_EQ(got.size(), want.size()) << "trial " << trial << " root " << root;
      for (const auto &w : want) {
        ASSERT_TRUE(got.count(w.first)) << "trial " << trial << " terminal " << w.first;
        EXPECT_EQ(got.at(w.first).calls, w.second.calls) << "trial " << trial;
        EXPECT_EQ(got.at(w.first).weight, w.second.weight) << "trial " << trial;
      }
    }
  }
}

// A rule of many distinct calls (a long irregular sequence) is summarized
// without touching every terminal seen so far at each step: 2*10^5 distinct
// terminals took minutes when each append walked the whole summary.
TEST(ProxygenSignatureSpans, LongIrregularRule) {
  constexpr uint32_t n = 200000;
  Grammar g;
  g.rules.resize(1);
  for (uint32_t t = 0; t < n; ++t)
    g.rules[0].push_back(GrammarSymbol::terminal(t));
  g.rules[0].push_back(GrammarSymbol::terminal(7));
  const auto spans = proxygen::signature_spans(g, 0, std::vector<double>(n, 1.0));
  ASSERT_EQ(spans.size(), n);
  EXPECT_EQ(spans.at(7).calls, static_cast<double>(n - 7));
  EXPECT_EQ(spans.at(8).calls, 0.0);
}
