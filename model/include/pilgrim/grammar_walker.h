// Expanding a rank's grammar call by call without recursion, so a hostile or
// very deep grammar can neither overflow the stack nor loop forever.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "pilgrim/grammar_checks.h"
#include "pilgrim/grammar_model.h"

namespace pilgrim {

// Yields the terminals of rule 0's expansion in order. The grammar must
// outlive the walker and should have passed validate_grammar: the walker
// never reads out of bounds or loops forever (invalid rule references are
// skipped; the constructor throws TraceError on a cycle), but it does not
// check terminals against the CST. Each next() costs at most O(rule nesting
// depth).
class GrammarWalker {
public:
  explicit GrammarWalker(const Grammar &grammar, uint64_t root = 0);
  bool next(uint64_t &terminal);
  // Where the terminal that next() yielded last stands in the grammar: its
  // rule and its index in that rule's body (a grammar position, shared by
  // every call that expands from it).
  uint64_t rule() const { return rule_; }
  size_t position() const { return position_; }

private:
  struct Frame {
    uint64_t rule;
    size_t pos;
    uint64_t done; // completed repetitions of the symbol at pos
  };
  const Grammar &grammar_;
  std::vector<uint64_t> lengths_;
  std::vector<Frame> stack_;
  uint64_t rule_ = 0;
  size_t position_ = 0;
};

} // namespace pilgrim
