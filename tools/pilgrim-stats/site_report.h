// pilgrim-stats --sites: calls, bytes and time inside the calls per call
// site (docs/STATS.md, "Call sites (--sites)").
#pragma once

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

void print_site_report(TextOutput &out, const TraceInput &input);

} // namespace pilgrim::stats
