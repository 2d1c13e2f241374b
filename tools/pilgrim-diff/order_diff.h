// pilgrim-diff --order: where two runs' orders part. Each rank's matching
// events (pilgrim/match_events.h: what wildcard receives and probes
// matched, which requests completions returned, whether polls succeeded)
// compared in order; the first event that differs on each rank is one line.
#pragma once

#include <string>

#include "pilgrim/trace_model.h"

namespace pilgrim::diff {

struct OrderResult {
  bool same = true;
  std::string text;   // one line per rank whose order parts, then a summary
  uint64_t events = 0; // matching events compared (all ranks, A's count)
};

OrderResult diff_orders(const Trace &a, const Trace &b);

} // namespace pilgrim::diff
