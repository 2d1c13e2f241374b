// What pilgrim-stats prints without --timing, and pilgrim-dump --stats with
// it (the same bytes): the function table, then the time report.
#pragma once

#include "text_output.h"
#include "time_report.h"
#include "trace_input.h"

namespace pilgrim::stats {

void print_default_report(TextOutput &out, const TraceInput &input,
                          const TimeReportOptions &options = {});

} // namespace pilgrim::stats
