// Tests of the online Sequitur grammar with repetition counts.
//
// Most tests append a sequence one terminal at a time and, after every
// append, check the internal invariants and that the grammar expands to the
// input so far (AppendChecked). Long sequences are checked at exponentially
// spaced lengths and at the end (AppendSpotChecked). Both also verify the
// exported grammar independently of the internal checker (CheckExport).
// Sequences come from fixed seeds, and the generators use only the raw output
// of std::mt19937_64 (whose sequence the standard fixes), so every run tests
// the same inputs.
#include "pilgrim/sequitur.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <new>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

// Counts global allocations, for the test that a loop in steady state does
// not allocate. Replacing the global operator new/delete is allowed in a
// program; everything else in the binary pays one relaxed increment.
namespace {
std::atomic<uint64_t> g_allocations{0};
} // namespace

// GCC pairs the inlined free() below with this operator new and warns.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif
void *operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void *p = std::malloc(size == 0 ? 1 : size))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete(void *p, std::size_t) noexcept { std::free(p); }

namespace pilgrim {

// The test seam declared a friend in sequitur.h.
struct SequiturTestAccess {
  static void disable_rule_reuse(Sequitur &s) { s.reuse_rules_ = false; }
  static void disable_loop_fast_path(Sequitur &s) { s.loop_fast_path_ = false; }
  static size_t pending(const Sequitur &s) { return s.pending_.size() + s.tail_repeats_; }
};

namespace {

using Seq = std::vector<uint32_t>;
using Rules = std::vector<std::vector<GrammarSymbol>>;
using Rng = std::mt19937_64;

// Appends verified by a full check after each one, over the whole binary.
uint64_t g_checked_appends = 0;

GrammarSymbol T(uint32_t id, uint64_t exp = 1) { return GrammarSymbol::terminal(id, exp); }
GrammarSymbol N(uint64_t rule, uint64_t exp = 1) { return GrammarSymbol::nonterminal(rule, exp); }

std::string Format(const Rules &rules) {
  std::ostringstream os;
  for (size_t r = 0; r < rules.size(); ++r) {
    os << "R" << r << " ->";
    for (const GrammarSymbol &s : rules[r]) {
      if (s.is_rule())
        os << " R" << s.rule();
      else
        os << " " << s.value;
      if (s.exp != 1)
        os << "^" << s.exp;
    }
    os << "\n";
  }
  return os.str();
}

std::string Describe(const Seq &seq) {
  std::ostringstream os;
  os << "input (" << seq.size() << " terminals):";
  for (size_t i = 0; i < seq.size() && i < 400; ++i)
    os << " " << seq[i];
  if (seq.size() > 400)
    os << " ...";
  return os.str();
}

// Checks an exported grammar on its own terms, without the internal checker:
// rules numbered in breadth-first order of first use from rule 0, every rule
// referenced, no cycles (expand_rules), adjacent symbols differ, no digram
// (with exponents) occurs twice, utility counted with exponents, no trivial
// rule, and the expansion is `expected`.
::testing::AssertionResult CheckExport(const Rules &rules, const Seq &expected) {
  auto fail = [&](const std::string &why) {
    return ::testing::AssertionFailure() << why << "\n" << Format(rules);
  };
  if (rules.empty())
    return fail("no start rule");
  size_t next_id = 1;
  std::vector<uint64_t> uses(rules.size(), 0);
  std::set<std::tuple<int64_t, uint64_t, int64_t, uint64_t>> digrams;
  for (size_t r = 0; r < rules.size(); ++r) {
    if (r != 0 && rules[r].size() < 2 && !(rules[r].size() == 1 && rules[r][0].exp >= 2))
      return fail("trivial rule " + std::to_string(r));
    for (size_t i = 0; i < rules[r].size(); ++i) {
      const GrammarSymbol &s = rules[r][i];
      if (s.is_rule()) {
        if (s.rule() == 0 || s.rule() > next_id)
          return fail("rules not numbered in order of first use");
        if (s.rule() == next_id)
          ++next_id;
        uses[s.rule()] += s.exp;
      }
      if (i > 0) {
        const GrammarSymbol &p = rules[r][i - 1];
        if (p.value == s.value)
          return fail("adjacent equal symbols");
        if (!digrams.emplace(p.value, p.exp, s.value, s.exp).second)
          return fail("repeated digram");
      }
    }
  }
  if (next_id != rules.size())
    return fail("unreferenced rule");
  for (size_t r = 1; r < rules.size(); ++r)
    if (uses[r] < 2)
      return fail("rule " + std::to_string(r) + " used fewer than 2 times");
  Seq got;
  try {
    got = expand_rules(rules);
  } catch (const std::exception &e) {
    return fail(std::string("expand_rules threw: ") + e.what());
  }
  if (got != expected)
    return fail("expand_rules(rules()) differs from the input");
  return ::testing::AssertionSuccess();
}

// Full check of `s` against the input prefix `input`.
::testing::AssertionResult CheckState(const Sequitur &s, const Seq &input, bool check_export) {
  std::string why;
  if (!s.check_invariants(&why))
    return ::testing::AssertionFailure() << "invariant: " << why << "\n"
                                         << Format(s.rules()) << Describe(input);
  if (s.length() != input.size())
    return ::testing::AssertionFailure() << "length() " << s.length() << "\n" << Describe(input);
  if (s.expand() != input)
    return ::testing::AssertionFailure() << "expand() differs\n"
                                         << Format(s.rules()) << Describe(input);
  if (check_export) {
    ::testing::AssertionResult r = CheckExport(s.rules(), input);
    if (!r)
      return r << Describe(input);
  }
  return ::testing::AssertionSuccess();
}

// Appends `seq`, checking everything after every single append.
::testing::AssertionResult AppendChecked(const Seq &seq, Sequitur *out = nullptr,
                                         bool reuse_rules = true) {
  Sequitur s;
  if (!reuse_rules)
    SequiturTestAccess::disable_rule_reuse(s);
  Seq prefix;
  prefix.reserve(seq.size());
  for (uint32_t t : seq) {
    s.append(t);
    prefix.push_back(t);
    ++g_checked_appends;
    // The export check builds a set per call: do it on every append of short
    // sequences and on every 32nd append of longer ones.
    const bool check_export = seq.size() <= 64 || prefix.size() % 32 == 0;
    ::testing::AssertionResult r = CheckState(s, prefix, check_export);
    if (!r)
      return r;
  }
  ::testing::AssertionResult r = CheckState(s, prefix, true);
  if (r && out)
    *out = s;
  return r;
}

// Appends `seq`, checking at lengths 1, 2, 4, 8, ... and at the end.
::testing::AssertionResult AppendSpotChecked(const Seq &seq, Sequitur *out = nullptr) {
  Sequitur s;
  for (size_t i = 0; i < seq.size(); ++i) {
    s.append(seq[i]);
    const size_t len = i + 1;
    if ((len & (len - 1)) == 0 || len == seq.size()) {
      ::testing::AssertionResult r = CheckState(s, Seq(seq.begin(), seq.begin() + len), true);
      if (!r)
        return r;
    }
  }
  if (out)
    *out = s;
  return ::testing::AssertionSuccess();
}

// --- Sequence generators --------------------------------------------------

uint64_t Below(Rng &rng, uint64_t n) { return rng() % n; }

Seq Random(Rng &rng, size_t n, uint64_t alphabet) {
  Seq s(n);
  for (uint32_t &t : s)
    t = static_cast<uint32_t>(Below(rng, alphabet));
  return s;
}

// Prefix of the Fibonacci word 0100101001001...
Seq Fibonacci(size_t n) {
  Seq a{0}, b{0, 1};
  while (b.size() < n) {
    Seq c = b;
    c.insert(c.end(), a.begin(), a.end());
    a = std::move(b);
    b = std::move(c);
  }
  b.resize(n);
  return b;
}

// Prefix of the Thue-Morse word: t(i) = parity of the number of 1 bits of i.
Seq ThueMorse(size_t n) {
  Seq s(n);
  for (size_t i = 0; i < n; ++i)
    s[i] = static_cast<uint32_t>(__builtin_popcountll(i) & 1);
  return s;
}

Seq Repeat(const Seq &body, size_t times) {
  Seq s;
  s.reserve(body.size() * times);
  for (size_t i = 0; i < times; ++i)
    s.insert(s.end(), body.begin(), body.end());
  return s;
}

// ((a b^3)^5 c)^outer
Seq NestedLoop(size_t outer) {
  Seq iteration = Repeat({0, 1, 1, 1}, 5); // (a b^3)^5
  iteration.push_back(2);                  // c
  return Repeat(iteration, outer);
}

// A random "program" of nested loops with small trip counts, runs of equal
// calls and straight-line code, like an MPI application's call stream.
void LoopProgram(Rng &rng, Seq &out, int depth, size_t cap, uint64_t alphabet) {
  const uint64_t items = 1 + Below(rng, 4);
  for (uint64_t i = 0; i < items && out.size() < cap; ++i) {
    if (depth > 0 && Below(rng, 2)) {
      Seq body;
      LoopProgram(rng, body, depth - 1, cap, alphabet);
      const uint64_t trips = 1 + Below(rng, 6);
      for (uint64_t k = 0; k < trips && out.size() < cap; ++k)
        out.insert(out.end(), body.begin(), body.end());
    } else {
      const uint32_t t = static_cast<uint32_t>(Below(rng, alphabet));
      const uint64_t run = Below(rng, 3) == 0 ? 1 + Below(rng, 4) : 1;
      out.insert(out.end(), run, t);
    }
  }
}

Seq Loops(Rng &rng, size_t n, uint64_t alphabet, int depth) {
  Seq s;
  while (s.size() < n)
    LoopProgram(rng, s, depth, n, alphabet);
  s.resize(n);
  return s;
}

// A random period repeated, each position replaced by noise with
// probability 1/noise.
Seq PeriodicWithNoise(Rng &rng, size_t n, uint64_t alphabet, size_t period, uint64_t noise) {
  Seq body = Random(rng, period, alphabet);
  Seq s(n);
  for (size_t i = 0; i < n; ++i)
    s[i] =
        Below(rng, noise) == 0 ? static_cast<uint32_t>(alphabet + Below(rng, 3)) : body[i % period];
  return s;
}

// LZ77-like text: copies of earlier substrings mixed with fresh symbols.
Seq Copies(Rng &rng, size_t n, uint64_t alphabet, size_t max_copy) {
  Seq s;
  while (s.size() < n) {
    if (s.size() > 4 && Below(rng, 3) != 0) {
      const size_t from = Below(rng, s.size());
      const size_t len = 1 + Below(rng, std::min(s.size() - from, max_copy));
      for (size_t i = 0; i < len; ++i)
        s.push_back(s[from + i]);
    } else {
      s.push_back(static_cast<uint32_t>(Below(rng, alphabet)));
    }
  }
  s.resize(n);
  return s;
}

// Runs of random lengths: exercises digrams that differ only in exponents.
Seq Runs(Rng &rng, size_t n, uint64_t alphabet, uint64_t max_run) {
  Seq s;
  while (s.size() < n) {
    // One draw per statement: argument evaluation order is unspecified.
    const uint64_t run = 1 + Below(rng, max_run);
    s.insert(s.end(), run, static_cast<uint32_t>(Below(rng, alphabet)));
  }
  s.resize(n);
  return s;
}

// --- Basic shapes -----------------------------------------------------------

TEST(Sequitur, EmptyGrammar) {
  Sequitur s;
  std::string why;
  EXPECT_TRUE(s.check_invariants(&why)) << why;
  EXPECT_EQ(s.length(), 0u);
  EXPECT_EQ(s.rules(), (Rules{{}}));
  EXPECT_TRUE(s.expand().empty());
  EXPECT_TRUE(expand_rules(s.rules()).empty());
  EXPECT_EQ(s.rule_count(), 1u);
  EXPECT_EQ(s.symbol_count(), 0u);
}

TEST(Sequitur, RunOfOneTerminalIsOneSymbol) {
  Sequitur s;
  ASSERT_TRUE(AppendChecked(Seq(1000, 7), &s));
  EXPECT_EQ(s.rules(), (Rules{{T(7, 1000)}}));
}

TEST(Sequitur, ExtremeTerminalIds) {
  const uint32_t big = UINT32_MAX;
  Sequitur s;
  // (big 0)^2 big^2 0 (big 0) big^2: (big^2 0) is not the digram (big 0).
  ASSERT_TRUE(AppendChecked({big, 0, big, 0, big, big, 0, big, 0, big, big}, &s));
  EXPECT_EQ(s.rules(), (Rules{{N(1, 2), T(big, 2), T(0), N(1), T(big, 2)}, {T(big), T(0)}}))
      << Format(s.rules());
}

// The example of Nevill-Manning & Witten: the rule for "a bc" is created
// and then inlined into "a bc d" once it is used only there.
TEST(Sequitur, ClassicExampleInlinesUnderusedRule) {
  Sequitur s;
  ASSERT_TRUE(AppendChecked({0, 1, 2, 3, 1, 2, 0, 1, 2, 3}, &s)); // abcdbcabcd
  EXPECT_EQ(s.rules(), (Rules{{N(1), N(2), N(1)}, {T(0), N(2), T(3)}, {T(1), T(2)}}))
      << Format(s.rules());
}

TEST(Sequitur, AlternatingPairIsOneLoop) {
  for (size_t n : {1, 2, 3, 10, 1000}) {
    Sequitur s;
    ASSERT_TRUE(AppendChecked(Repeat({4, 9}, n), &s));
    const Rules expected = n == 1 ? Rules{{T(4), T(9)}} : Rules{{N(1, n)}, {T(4), T(9)}};
    EXPECT_EQ(s.rules(), expected) << Format(s.rules());
  }
}

TEST(Sequitur, NestedLoopsKeepTheirStructure) {
  Sequitur s;
  ASSERT_TRUE(AppendChecked(NestedLoop(7), &s));
  // ((a b^3)^5 c)^7
  const Rules expected{{N(1, 7)}, {N(2, 5), T(2)}, {T(0), T(1, 3)}};
  EXPECT_EQ(s.rules(), expected) << Format(s.rules());

  Sequitur big;
  ASSERT_TRUE(AppendSpotChecked(NestedLoop(20000), &big));
  EXPECT_EQ(big.rules(), (Rules{{N(1, 20000)}, {N(2, 5), T(2)}, {T(0), T(1, 3)}}));
}

// Digrams include exponents: (a^2 b) and (a^3 b) are different digrams.
TEST(Sequitur, DigramsDifferByExponent) {
  Sequitur s;
  ASSERT_TRUE(AppendChecked({0, 0, 1, 0, 0, 0, 1, 0, 0, 1}, &s)); // a^2 b a^3 b a^2 b
  EXPECT_EQ(s.rules(), (Rules{{N(1), T(0, 3), T(1), N(1)}, {T(0, 2), T(1)}})) << Format(s.rules());
}

// --- The loop property --------------------------------------------------------

// A loop of N identical iterations costs the same grammar for every N: the
// exponent counts the iterations.
size_t LoopSymbols(const Seq &body, size_t trips, size_t *rules = nullptr,
                   Rules *exported = nullptr) {
  Sequitur s;
  for (size_t i = 0; i < trips; ++i)
    for (uint32_t t : body)
      s.append(t);
  std::string why;
  EXPECT_TRUE(s.check_invariants(&why)) << why;
  EXPECT_LE(s.memory_bytes(), 4096u) << "N=" << trips << " " << Describe(body);
  if (rules)
    *rules = s.rule_count();
  if (exported)
    *exported = s.rules();
  return s.symbol_count();
}

TEST(Sequitur, LoopGrammarSizeIndependentOfTripCount) {
  for (const Seq &body : {Seq{1, 2, 3, 4, 5}, Seq{1, 2, 1, 3, 1}, Seq{1, 1, 2, 1, 1}}) {
    size_t rules10 = 0, rules = 0;
    const size_t symbols10 = LoopSymbols(body, 10, &rules10);
    ASSERT_TRUE(AppendChecked(Repeat(body, 10)));
    for (size_t n : {1000, 100000}) {
      Rules exported;
      EXPECT_EQ(LoopSymbols(body, n, &rules, &exported), symbols10)
          << "N=" << n << " " << Describe(body);
      EXPECT_EQ(rules, rules10) << "N=" << n << " " << Describe(body);
      if (body == Seq{1, 2, 3, 4, 5}) {
        EXPECT_EQ(exported, (Rules{{N(1, n)}, {T(1), T(2), T(3), T(4), T(5)}}));
      }
    }
  }
}

// The same for every body of 5 calls over 3 distinct functions (some bodies
// overlap themselves across iterations, e.g. a b a b a -> (a b a b a^2 ...)).
TEST(Sequitur, EveryShortLoopBodyHasConstantSize) {
  for (uint32_t code = 0; code < 243; ++code) {
    Seq body;
    for (uint32_t c = code, i = 0; i < 5; ++i, c /= 3)
      body.push_back(c % 3);
    size_t rules10 = 0, rules = 0;
    const size_t symbols10 = LoopSymbols(body, 10, &rules10);
    for (size_t n : {37, 300}) {
      EXPECT_EQ(LoopSymbols(body, n, &rules), symbols10) << "N=" << n << " " << Describe(body);
      EXPECT_EQ(rules, rules10) << "N=" << n << " " << Describe(body);
    }
  }
}

TEST(Sequitur, NestedLoopGrammarSizeIndependentOfTripCounts) {
  Rng rng(11);
  for (int trial = 0; trial < 40; ++trial) {
    Seq body;
    LoopProgram(rng, body, 2, 40, 4);
    size_t symbols = 0;
    for (size_t n : {10, 100, 1000}) {
      Sequitur s;
      for (size_t i = 0; i < n; ++i)
        for (uint32_t t : body)
          s.append(t);
      std::string why;
      ASSERT_TRUE(s.check_invariants(&why)) << why;
      if (n == 10)
        symbols = s.symbol_count();
      EXPECT_EQ(s.symbol_count(), symbols) << "N=" << n << " " << Describe(body);
    }
  }
}

TEST(Sequitur, MillionIterationLoopIsConstantSize) {
  Sequitur s;
  const Seq body{10, 11, 12, 13, 14};
  for (int i = 0; i < 1000000; ++i)
    for (uint32_t t : body)
      s.append(t);
  std::string why;
  ASSERT_TRUE(s.check_invariants(&why)) << why;
  EXPECT_EQ(s.length(), 5000000u);
  EXPECT_EQ(s.rules(), (Rules{{N(1, 1000000)}, {T(10), T(11), T(12), T(13), T(14)}}));
  EXPECT_EQ(s.rule_count(), 2u);
  EXPECT_EQ(s.symbol_count(), 6u);
  EXPECT_LE(s.memory_bytes(), 4096u);
  ::testing::Test::RecordProperty("memory_bytes", static_cast<int>(s.memory_bytes()));
  std::cout << "[ info ] 10^6-iteration loop: " << s.rule_count() << " rules, " << s.symbol_count()
            << " symbols, " << s.memory_bytes() << " bytes\n";
}

// Once warmed up, appending more iterations of a loop reuses pooled nodes
// and rules: no heap allocation at all.
TEST(Sequitur, SteadyStateLoopDoesNotAllocate) {
  for (const Seq &body : {Seq{1, 2, 3, 4, 5}, NestedLoop(1), Seq{1, 2, 1, 3, 1, 2}}) {
    Sequitur s;
    for (int i = 0; i < 100; ++i)
      for (uint32_t t : body)
        s.append(t);
    const uint64_t before = g_allocations.load();
    for (int i = 0; i < 10000; ++i)
      for (uint32_t t : body)
        s.append(t);
    EXPECT_EQ(g_allocations.load() - before, 0u) << Describe(body);
  }
}

// --- Every append checked -------------------------------------------------------

TEST(Sequitur, RandomSmallAlphabetsCheckedEveryAppend) {
  Rng rng(1);
  for (int i = 0; i < 4000; ++i) {
    const uint64_t alphabet = 2 + i % 4;
    ASSERT_TRUE(AppendChecked(Random(rng, 1 + Below(rng, 150), alphabet)));
  }
}

TEST(Sequitur, RandomLargeAlphabetsCheckedEveryAppend) {
  Rng rng(2);
  for (int i = 0; i < 1000; ++i) {
    const uint64_t alphabet = i % 3 == 0 ? 20 : i % 3 == 1 ? 1000 : uint64_t{1} << 32;
    ASSERT_TRUE(AppendChecked(Random(rng, 1 + Below(rng, 150), alphabet)));
  }
}

TEST(Sequitur, AdversarialSequencesCheckedEveryAppend) {
  ASSERT_TRUE(AppendChecked(Seq(2000, 3)));         // a^n
  ASSERT_TRUE(AppendChecked(Repeat({0, 1}, 1000))); // (ab)^n
  ASSERT_TRUE(AppendChecked(NestedLoop(30)));       // ((a b^3)^5 c)^n
  ASSERT_TRUE(AppendChecked(Fibonacci(3000)));
  ASSERT_TRUE(AppendChecked(ThueMorse(3000)));
  // a b a^2 b a^3 b ...: no digram ever repeats.
  Seq growing;
  for (size_t k = 1; growing.size() < 2000; ++k) {
    growing.insert(growing.end(), k, 0);
    growing.push_back(1);
  }
  ASSERT_TRUE(AppendChecked(growing));
  // Squares of squares, and counting patterns that force rule inlining.
  ASSERT_TRUE(AppendChecked(Repeat(Repeat({0, 1, 2}, 2), 200)));
  Seq counting;
  for (uint32_t i = 0; counting.size() < 2000; ++i)
    for (uint32_t j = 0; j <= i % 7; ++j)
      counting.insert(counting.end(), {j, j + 1, 0});
  ASSERT_TRUE(AppendChecked(counting));
}

TEST(Sequitur, StructuredSequencesCheckedEveryAppend) {
  Rng rng(3);
  for (int i = 0; i < 7500; ++i) {
    const size_t n = 1 + Below(rng, 150);
    const uint64_t alphabet = 2 + Below(rng, 5);
    Seq seq;
    switch (i % 5) {
    case 0:
      seq = Loops(rng, n, alphabet, 3);
      break;
    case 1:
      seq = PeriodicWithNoise(rng, n, alphabet, 1 + Below(rng, 12), 50);
      break;
    case 2:
      seq = Copies(rng, n, alphabet, 30);
      break;
    case 3:
      seq = Runs(rng, n, alphabet, 5);
      break;
    default: {
      const Seq body = Loops(rng, 1 + Below(rng, 20), alphabet, 2);
      seq = Repeat(body, 1 + Below(rng, 15));
      seq.resize(std::min(seq.size(), n));
      break;
    }
    }
    ASSERT_TRUE(AppendChecked(seq));
  }
}

// No input is known to make a rule body shrink to a single symbol with
// exponent 1 (I4), so force it: with rule reuse off, a digram equal to an
// entire rule body gets a new rule, the old rule's body becomes that one
// symbol, and the old rule must be renamed away. This also drives the match
// case where the newly checked occurrence is itself a whole rule body. The
// invariants must hold throughout and the grammar must come out the same.
TEST(Sequitur, ForcedTrivialRuleRemovalKeepsInvariants) {
  Rng rng(6);
  for (int i = 0; i < 1500; ++i) {
    const size_t n = 1 + Below(rng, 150);
    const Seq seq = i % 2 ? Random(rng, n, 2 + i % 3) : Loops(rng, n, 3, 3);
    Sequitur forced, normal;
    ASSERT_TRUE(AppendChecked(seq, &forced, /*reuse_rules=*/false));
    for (uint32_t t : seq)
      normal.append(t);
    ASSERT_EQ(forced.rules(), normal.rules()) << Describe(seq);
  }
}

// --- Long runs, checked at exponentially spaced points -----------------------

TEST(Sequitur, LongSequencesCheckedAtExponentialPoints) {
  Rng rng(4);
  ASSERT_TRUE(AppendSpotChecked(Random(rng, 100000, 2)));
  ASSERT_TRUE(AppendSpotChecked(Random(rng, 100000, 1000)));
  ASSERT_TRUE(AppendSpotChecked(Fibonacci(200000)));
  ASSERT_TRUE(AppendSpotChecked(ThueMorse(200000)));
  ASSERT_TRUE(AppendSpotChecked(Loops(rng, 300000, 6, 4)));
  ASSERT_TRUE(AppendSpotChecked(PeriodicWithNoise(rng, 300000, 8, 37, 200)));
  ASSERT_TRUE(AppendSpotChecked(Copies(rng, 200000, 4, 300)));
  ASSERT_TRUE(AppendSpotChecked(Runs(rng, 200000, 3, 6)));
}

// --- Export and determinism ---------------------------------------------------------

TEST(Sequitur, DeterministicAndCopyable) {
  Rng rng(5);
  const Seq seq = Copies(rng, 20000, 5, 100);
  Sequitur a, b;
  for (size_t i = 0; i < seq.size() / 2; ++i) {
    a.append(seq[i]);
    b.append(seq[i]);
  }
  Sequitur c = a; // a copy continues exactly like the original
  for (size_t i = seq.size() / 2; i < seq.size(); ++i) {
    a.append(seq[i]);
    b.append(seq[i]);
    c.append(seq[i]);
  }
  EXPECT_EQ(a.rules(), b.rules());
  EXPECT_EQ(a.rules(), c.rules());
  EXPECT_TRUE(CheckState(c, seq, true));
}

// Symbols in all rules of an exported grammar.
size_t Size(const Rules &rules) {
  size_t n = 0;
  for (const auto &r : rules)
    n += r.size();
  return n;
}

// The loop fast path holds terminals back while they match the tail rule and
// bumps its exponent when a whole copy has arrived. That is a legal Sequitur
// step, so the grammar keeps every invariant (checked after every append), but
// it need not be the very grammar the plain algorithm builds: the plain one may
// first pair the loop's terminals with other occurrences, or index digrams
// of a run's intermediate exponents. Summed over each kind of sequence it must
// stay within 3% of the plain grammar's size (on random input the two differ
// either way, sequence by sequence).
TEST(Sequitur, LoopFastPathKeepsInvariantsAndSize) {
  Rng rng(11);
  size_t held_back = 0, fast_total[4] = {}, plain_total[4] = {};
  for (int i = 0; i < 400; ++i) {
    const size_t n = 1 + Below(rng, 3000);
    Seq seq;
    switch (i % 4) {
    case 0: seq = Loops(rng, n, 2 + i % 5, 1 + i % 4); break;
    case 1: seq = PeriodicWithNoise(rng, n, 3 + i % 4, 1 + Below(rng, 12), 50); break;
    case 2: seq = Copies(rng, n, 2 + i % 6, 40); break;
    default: seq = Random(rng, n, 2 + i % 3); break;
    }
    Sequitur fast, plain;
    SequiturTestAccess::disable_loop_fast_path(plain);
    for (size_t k = 0; k < seq.size(); ++k) {
      fast.append(seq[k]);
      plain.append(seq[k]);
      held_back += SequiturTestAccess::pending(fast);
      if (k % 61 == 0) {
        ASSERT_TRUE(CheckState(fast, Seq(seq.begin(), seq.begin() + k + 1), true));
      }
    }
    ASSERT_TRUE(CheckState(fast, seq, true));
    fast_total[i % 4] += Size(fast.rules());
    plain_total[i % 4] += Size(plain.rules());
  }
  EXPECT_GT(held_back, 0u); // the fast path was taken
  const char *kinds[4] = {"loops", "periodic with noise", "copies", "random"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_LE(fast_total[k], plain_total[k] + plain_total[k] * 3 / 100) << kinds[k];
    std::cout << "[ info ] grammar symbols, " << kinds[k] << ": fast path " << fast_total[k]
              << ", plain " << plain_total[k] << "\n";
  }
}

// --- expand_rules ---------------------------------------------------------------------

TEST(ExpandRules, ExpandsValidGrammars) {
  EXPECT_EQ(expand_rules({}), Seq{}); // no rules: the empty sequence (grammar_model.h)
  EXPECT_EQ(expand_rules({{}}), Seq{});
  EXPECT_EQ(expand_rules({{T(5, 3)}}), (Seq{5, 5, 5}));
  // S -> A^2 c A, A -> a B^2, B -> b^2 c
  EXPECT_EQ(expand_rules({{N(1, 2), T(2), N(1)}, {T(0), N(2, 2)}, {T(1, 2), T(2)}}),
            (Seq{0, 1, 1, 2, 1, 1, 2, 0, 1, 1, 2, 1, 1, 2, 2, 0, 1, 1, 2, 1, 1, 2}));
  // An unreferenced rule and an empty rule are not errors.
  EXPECT_EQ(expand_rules({{T(1), N(2, 4), T(UINT32_MAX)}, {T(3)}, {}}), (Seq{1, UINT32_MAX}));
}

TEST(ExpandRules, RejectsMalformedGrammars) {
  const std::vector<std::pair<const char *, Rules>> bad{
      {"reference to a missing rule", {{T(1), N(1)}}},
      {"reference far out of range", {{GrammarSymbol{INT64_MIN, 1}}}},
      {"start rule references itself", {{T(1), N(0)}}},
      {"two-rule cycle", {{N(1)}, {T(1), N(2)}, {N(1), T(2)}}},
      {"cycle in an unreachable rule", {{T(1)}, {N(1, 2)}}},
      {"terminal exponent 0", {{T(1, 0)}}},
      {"rule exponent 0", {{N(1, 0)}, {T(1), T(2)}}},
      {"terminal id above 32 bits", {{GrammarSymbol{int64_t{1} << 32, 1}}}},
      {"expansion too long",
       {{N(1, uint64_t{1} << 40)}, {N(2, uint64_t{1} << 40), T(1)}, {T(1), T(2)}}},
  };
  for (const auto &[what, rules] : bad)
    EXPECT_THROW(expand_rules(rules), std::runtime_error) << what;
}

// Reports how many appends were verified by a full check after each append;
// the suite is designed for at least 10^6.
class CheckedAppendCount : public ::testing::Environment {
public:
  void TearDown() override {
    std::cout << "[ info ] appends checked one by one: " << g_checked_appends << "\n";
    if (::testing::GTEST_FLAG(filter) == "*") {
      EXPECT_GE(g_checked_appends, 1000000u);
    }
  }
};

const auto *const kCheckedAppendCount = ::testing::AddGlobalTestEnvironment(new CheckedAppendCount);

} // namespace
} // namespace pilgrim
