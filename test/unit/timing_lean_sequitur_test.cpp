// The cfg codec's Sequitur (grammar/include/pilgrim/lean_sequitur.h): on random and
// structured inputs the grammar is valid, expands to exactly the input, and
// keeps Sequitur's rule utility (every rule but the start rule used at least
// twice, counting exponents); repeats compress.
#include "pilgrim/lean_sequitur.h"

#include "pilgrim/grammar_checks.h"
#include "pilgrim/rule_codec.h"
#include "pilgrim/sequitur.h"

#include <gtest/gtest.h>

#include <random>

using pilgrim::GrammarSymbol;
using pilgrim::LeanSequitur;

namespace {

void check_grammar(const std::vector<uint32_t> &input, const LeanSequitur &s) {
  const std::vector<std::vector<GrammarSymbol>> rules = s.rules();
  std::string direct, via;
  pilgrim::ByteWriter w1(direct), w2(via);
  s.put(w1);
  pilgrim::put_rules(w2, rules);
  EXPECT_EQ(direct, via);
  pilgrim::Grammar g;
  g.rules = rules;
  ASSERT_NO_THROW(pilgrim::validate_grammar(g, size_t{UINT32_MAX} + 1));
  ASSERT_EQ(pilgrim::expand_rules(rules), input);
  std::vector<uint64_t> uses(rules.size(), 0);
  for (const auto &body : rules)
    for (const GrammarSymbol &x : body)
      if (x.is_rule())
        uses[x.rule()] += x.exp;
  for (size_t r = 1; r < rules.size(); ++r) {
    EXPECT_GE(uses[r], 2u) << "rule " << r;
    EXPECT_FALSE(rules[r].empty()) << "rule " << r;
  }
}

} // namespace

TEST(LeanSequitur, EmptyAndShort) {
  for (size_t n = 0; n < 8; ++n) {
    LeanSequitur s;
    std::vector<uint32_t> in;
    for (size_t i = 0; i < n; ++i) {
      in.push_back(static_cast<uint32_t>(i % 2));
      s.append(in.back());
    }
    check_grammar(in, s);
  }
}

TEST(LeanSequitur, RandomAlphabets) {
  std::mt19937_64 rng(3);
  for (int round = 0; round < 300; ++round) {
    const uint32_t alphabet = 1 + static_cast<uint32_t>(rng() % (round % 3 == 0 ? 3 : 40));
    const size_t n = rng() % 5000;
    LeanSequitur s;
    std::vector<uint32_t> in;
    for (size_t i = 0; i < n; ++i) {
      // Runs, repeated blocks and noise.
      const uint64_t kind = rng() % 10;
      if (kind == 0 && !in.empty())
        for (uint64_t k = rng() % 20; k-- > 0 && in.size() < n;)
          in.push_back(in.back());
      else if (kind == 1 && in.size() > 16)
        for (size_t from = in.size() - 1 - rng() % 16, k = 0; k < 12 && in.size() < n; ++k)
          in.push_back(in[from + k % (in.size() - from)]);
      else
        in.push_back(static_cast<uint32_t>(rng() % alphabet));
    }
    in.resize(std::min(in.size(), n));
    for (uint32_t t : in)
      s.append(t);
    check_grammar(in, s);
    if (testing::Test::HasFailure())
      FAIL() << "round " << round;
  }
}

TEST(LeanSequitur, LoopsCompress) {
  LeanSequitur s;
  std::vector<uint32_t> in;
  for (int i = 0; i < 65536; ++i)
    in.push_back(static_cast<uint32_t>(i % 7 == 3 ? 9 : i % 3));
  for (uint32_t t : in)
    s.append(t);
  check_grammar(in, s);
  size_t symbols = 0;
  for (const auto &body : s.rules())
    symbols += body.size();
  EXPECT_LT(symbols, 200u);
}
