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
