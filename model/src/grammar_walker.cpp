#include "pilgrim/grammar_walker.h"

namespace pilgrim {

GrammarWalker::GrammarWalker(const Grammar &grammar, uint64_t root)
    : grammar_(grammar), lengths_(rule_lengths(grammar, root)) {
  if (root < grammar_.rules.size())
    stack_.push_back({root, 0, 0});
}

bool GrammarWalker::next(uint64_t &terminal) {
  while (!stack_.empty()) {
    Frame &f = stack_.back();
    const auto &body = grammar_.rules[f.rule];
    if (f.pos >= body.size()) {
      stack_.pop_back();
      continue;
    }
    const GrammarSymbol &s = body[f.pos];
    if (!is_terminal(s) && (rule_index(s) >= lengths_.size() || lengths_[rule_index(s)] == 0)) {
      // expands to nothing (or an invalid reference)
      ++f.pos;
      f.done = 0;
      continue;
    }
    if (is_terminal(s)) {
      rule_ = f.rule;
      position_ = f.pos;
    }
    if (++f.done >= s.exp) {
      ++f.pos;
      f.done = 0;
    }
    if (is_terminal(s)) {
      terminal = static_cast<uint64_t>(s.value);
      return true;
    }
    stack_.push_back({rule_index(s), 0, 0}); // invalidates f
  }
  return false;
}

} // namespace pilgrim
