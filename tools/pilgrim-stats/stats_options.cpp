#include "stats_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::stats {

namespace {

const char kUsage[] = "Usage: pilgrim-stats [--rank R] TRACE\n"
                      "\n"
                      "Prints statistics of a Pilgrim trace: its header block, then per MPI\n"
                      "function the calls, the bytes their buffers hold and their timing (time\n"
                      "inside the call, time between calls of the same signature) in ns, us, ms\n"
                      "or s. `pilgrim-dump --stats TRACE` prints the same.\n"
                      "\n"
                      "Options:\n"
                      "  --rank R     only rank R\n"
                      "  --help       show this help and exit\n"
                      "  --version    show the version and exit\n"
                      "\n"
                      "Exit status: 0 success, 1 unreadable or invalid trace, 2 usage error.\n"
                      "The output format is described in docs/STATS.md.\n";

} // namespace

cli::CommandLine command_line(StatsOptions &o) {
  cli::CommandLine c("pilgrim-stats", kUsage, kFormatVersion);
  c.integer({"--rank"}, "a non-negative integer", 0, 0xffffffffull, o.rank)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::stats
