// pilgrim-stats's default report (and pilgrim-dump --stats): per function,
// over the selected ranks, the calls, the bytes their buffers hold and their
// timing (docs/STATS.md).
#pragma once

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

void print_function_report(TextOutput &out, const TraceInput &input);

} // namespace pilgrim::stats
