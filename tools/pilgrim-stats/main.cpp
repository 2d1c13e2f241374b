// pilgrim-stats: statistics of a Pilgrim trace (docs/STATS.md). Each report
// is its own file, printed after the header block.
#include <cstdio>
#include <exception>

#include "function_report.h"
#include "header_block.h"
#include "stats_options.h"
#include "text_output.h"
#include "trace_input.h"

int main(int argc, char **argv) {
  using namespace pilgrim;
  stats::StatsOptions options;
  if (const auto status = stats::command_line(options).parse(argc, argv))
    return *status;
  try {
    const TraceInput input = read_trace_input(options.trace_path, options.rank);
    TextOutput out(stdout);
    print_header_block(out, input.path, input.file.header(), input.file.functions().size());
    stats::print_function_report(out, input);
    out.flush();
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim-stats: %s\n", e.what());
    return 1;
  }
}
