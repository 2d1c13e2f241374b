// The last step of the cross-rank merge: the distinct grammars (each over
// the merged CST) become one pool of rules in which rules they have in
// common are stored once. One Sequitur pass runs over every rule body of
// every grammar, each body closed by a separator of its own; the rules
// Sequitur forms are the shared ones, and each original rule keeps, as its
// body, its segment of Sequitur's start rule.
#pragma once

#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// Returns cst, rules and roots of a MergedTrace (rank_map and comms empty);
// grammar g's call sequence is the expansion of rules[roots[g]], exactly as
// it was grammar g's rule 0.
MergedTrace share_rules(std::vector<CstEntry> cst, std::vector<Grammar> grammars);

} // namespace pilgrim
