// The canonical in-memory shape of a rank's Sequitur grammar, as stored in a
// trace; the grammar library's builders (grammar/: pilgrim/sequitur.h,
// pilgrim/lean_sequitur.h) export their grammars in it.
#pragma once

#include <cstdint>
#include <vector>

namespace pilgrim {

// One symbol of a rule's body, repeated `exp` times (exp >= 1).
//   value >= 0: terminal, the index of a CST entry of the same rank.
//   value <  0: rule number -(value + 1) (so -1 is rule 0, -2 rule 1, ...).
struct GrammarSymbol {
  int64_t value;
  uint64_t exp;

  bool is_rule() const { return value < 0; }
  // The rule index of a nonterminal; only meaningful when is_rule().
  uint64_t rule() const { return static_cast<uint64_t>(-(value + 1)); }
  static GrammarSymbol terminal(uint32_t id, uint64_t exp = 1) {
    return GrammarSymbol{static_cast<int64_t>(id), exp};
  }
  static GrammarSymbol nonterminal(uint64_t rule, uint64_t exp = 1) {
    return GrammarSymbol{-static_cast<int64_t>(rule) - 1, exp};
  }
  friend bool operator==(const GrammarSymbol &a, const GrammarSymbol &b) {
    return a.value == b.value && a.exp == b.exp;
  }
  friend bool operator!=(const GrammarSymbol &a, const GrammarSymbol &b) { return !(a == b); }
};

inline bool is_terminal(const GrammarSymbol &s) { return s.value >= 0; }
// The rule number of a non-terminal symbol.
inline uint64_t rule_index(const GrammarSymbol &s) { return static_cast<uint64_t>(-(s.value + 1)); }
inline int64_t rule_symbol_value(uint64_t rule) { return -static_cast<int64_t>(rule) - 1; }

// Rule 0 is the start rule; its expansion is the rank's call sequence. A
// grammar with no rules is an empty sequence.
struct Grammar {
  std::vector<std::vector<GrammarSymbol>> rules;
};

} // namespace pilgrim
