// pilgrim-stats's phase table (docs/STATS.md, "Phases"): per phase named
// by PILGRIM_PHASE (pilgrim/annotate.h), over the selected ranks, the MPI
// calls made in it and, with per-call timing, their time in MPI and the
// phase's wall time. Printed only for a trace with phase markers.
#pragma once

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

void print_phase_report(TextOutput &out, const TraceInput &input);

} // namespace pilgrim::stats
