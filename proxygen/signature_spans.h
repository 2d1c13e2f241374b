// Where each call signature's first and last calls lie in a rank's call
// sequence, computed on the grammar (never expanding it): for every terminal
// of rule `root`'s expansion, the calls and the summed per-call weight
// (e.g. mean duration) from just after its first call to its last call
// included, i.e. over the windows between its consecutive calls.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "pilgrim/grammar_model.h"

namespace pilgrim::proxygen {

struct SignatureSpan {
  double calls = 0;  // calls in (first, last]: the calls its intervals cover
  double weight = 0; // their summed weights
};

// `weight[t]` is the weight of one call of terminal t (terminals beyond it
// weigh 0). Throws TraceError on a cyclic grammar.
std::map<uint64_t, SignatureSpan> signature_spans(const Grammar &rules, uint64_t root,
                                                  const std::vector<double> &weight);

} // namespace pilgrim::proxygen
