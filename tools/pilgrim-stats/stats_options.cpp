#include "stats_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::stats {

namespace {

const char kUsage[] =
    "Usage: pilgrim-stats [--rank R] [--top N | --per-rank] TRACE\n"
    "       pilgrim-stats --timing [--rank R] [--per-rank] TRACE\n"
    "\n"
    "Prints statistics of a Pilgrim trace: its header block, then per MPI\n"
    "function the calls, the bytes their buffers hold and their timing (time\n"
    "inside the call, time between calls of the same signature), then where the\n"
    "time went: time in MPI per function, the ranks with the most time in MPI\n"
    "and the imbalance of each collective (per rank: per-call timing modes\n"
    "only). Times in ns, us, ms or s. `pilgrim-dump --stats TRACE` prints the same.\n"
    "\n"
    "Options:\n"
    "  --rank R     only rank R\n"
    "  --top N      list the N ranks with the most time in MPI (default 5)\n"
    "  --per-rank   list every rank (with --timing: a line per rank after the total)\n"
    "  --timing     instead: what the per-call timing mode kept: compression ratio\n"
    "               against 2 x 8-byte doubles per call and, against the\n"
    "               verification copies of PILGRIM_VERIFY=1, the largest relative\n"
    "               and absolute errors and the PSNR of durations and gaps\n"
    "  --help       show this help and exit\n"
    "  --version    show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 unreadable or invalid trace, 2 usage error.\n"
    "The output format is described in docs/STATS.md.\n";

} // namespace

cli::CommandLine command_line(StatsOptions &o) {
  cli::CommandLine c("pilgrim-stats", kUsage, kFormatVersion);
  c.integer({"--rank"}, "a non-negative integer", 0, 0xffffffffull, o.rank)
      .integer({"--top"}, "a positive integer", 1, 0xffffffffull, o.top)
      .flag({"--per-rank"}, o.per_rank)
      .flag({"--timing"}, o.timing)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::stats
