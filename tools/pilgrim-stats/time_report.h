// pilgrim-stats's time report (docs/STATS.md, "Time in MPI"), printed after
// the function table: where the time went. In a per-call timing mode, from
// every call's start and end (TraceFile::call_times): time in MPI per
// function and per rank, the ranks with the most time in MPI, and the
// imbalance (max/mean over ranks) of the time in each blocking collective.
// In aggregate mode what the per-signature statistics give (time per
// function) and one line for each answer that needs a per-call mode.
#pragma once

#include <cstddef>

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

struct TimeReportOptions {
  size_t top = 5;        // ranks listed, most time in MPI first
  bool per_rank = false; // list every rank
};

void print_time_report(TextOutput &out, const TraceInput &input, const TimeReportOptions &options);

} // namespace pilgrim::stats
