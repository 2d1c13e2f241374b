#include "default_report.h"

#include "function_report.h"
#include "phase_report.h"

namespace pilgrim::stats {

void print_default_report(TextOutput &out, const TraceInput &input,
                          const TimeReportOptions &options) {
  print_function_report(out, input);
  print_phase_report(out, input);
  print_time_report(out, input, options);
}

} // namespace pilgrim::stats
