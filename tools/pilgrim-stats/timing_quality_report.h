// pilgrim-stats --timing (docs/STATS.md, "--timing"): what a per-call timing
// mode cost and kept. In total, or per rank: the compression ratio against
// raw 2 x 8-byte doubles per call, and, against the verification copy
// PILGRIM_VERIFY=1 wrote beside the trace (TRACE.verify.RANK.times), the
// largest relative and absolute errors and the PSNR of durations and of
// gaps (analyses/timing_quality.h).
#pragma once

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

void print_timing_quality(TextOutput &out, const TraceInput &input, bool per_rank);

} // namespace pilgrim::stats
