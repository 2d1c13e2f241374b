// pilgrim-stats: statistics of a Pilgrim trace (docs/STATS.md). Each report
// is its own file, printed after the header block.
#include <cstdio>
#include <exception>

#include "default_report.h"
#include "header_block.h"
#include "matrix_report.h"
#include "site_report.h"
#include "stats_options.h"
#include "text_output.h"
#include "timing_quality_report.h"
#include "trace_input.h"

int main(int argc, char **argv) {
  using namespace pilgrim;
  stats::StatsOptions options;
  if (const auto status = stats::command_line(options).parse(argc, argv))
    return *status;
  try {
    const TraceInput input = read_trace_input(options.trace_path, options.rank);
    TextOutput out(stdout);
    if (options.matrix || !options.matrix_svg.empty()) {
      // The CSV alone, without the header block, so that it loads as is.
      stats::print_matrix(
          out, input,
          {options.matrix, options.matrix_svg, options.matrix_p2p, options.matrix_bytes});
      out.flush();
      return 0;
    }
    print_header_block(out, input.path, input.file.header(), input.file.functions().size());
    if (options.timing)
      stats::print_timing_quality(out, input, options.per_rank);
    else if (options.sites)
      stats::print_site_report(out, input);
    else
      stats::print_default_report(out, input, {static_cast<size_t>(options.top), options.per_rank});
    out.flush();
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim-stats: %s\n", e.what());
    return cli::kTrouble;
  }
}
