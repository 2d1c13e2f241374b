// Checking a rank's grammar and measuring its expansion without recursion,
// so a hostile or very deep grammar can neither overflow the stack nor loop
// forever. Expanding it call by call is GrammarWalker (model/, grammar_walker.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "pilgrim/grammar_model.h"

namespace pilgrim {

// Throws TraceError unless: every exp >= 1, every terminal < nterminals,
// every rule reference names an existing rule, and no rule reaches itself.
void validate_grammar(const Grammar &grammar, size_t nterminals);

// Number of terminals each rule expands to, saturating at UINT64_MAX.
// Invalid rule references count as empty; throws TraceError on a cycle.
// With `only_root` naming a rule, only the rules it reaches are computed
// (the others stay 0): the cost follows that rule's part of the grammar.
std::vector<uint64_t> rule_lengths(const Grammar &grammar, uint64_t only_root = UINT64_MAX);

// Number of calls rule 0 expands to (0 without rules), saturating.
uint64_t expanded_length(const Grammar &grammar, uint64_t root = 0);

// How many times each terminal occurs in rule `root`'s expansion, as
// (terminal, count) pairs sorted by terminal; O(the rules `root` reaches),
// counts saturating. Throws TraceError on a cycle.
std::vector<std::pair<uint64_t, uint64_t>> terminal_counts(const Grammar &grammar, uint64_t root);

} // namespace pilgrim
