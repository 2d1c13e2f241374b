#include "stats_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::stats {

namespace {

const char kUsage[] =
    "Usage: pilgrim-stats [--rank R] [--top N | --per-rank] TRACE\n"
    "       pilgrim-stats --timing [--rank R] [--per-rank] TRACE\n"
    "       pilgrim-stats --sites [--rank R] TRACE\n"
    "       pilgrim-stats [--matrix] [--matrix-svg FILE [--matrix-kind K]\n"
    "                     [--matrix-value V]] [--rank R] TRACE\n"
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
    "  --sites      instead: per call site (file:line:col in function, from the\n"
    "               program's debug information), the calls made there, the\n"
    "               bytes their buffers hold and the time inside them\n"
    "  --matrix     instead: the communication matrix as CSV (kind, communicator,\n"
    "               sender, receiver, messages, bytes), point-to-point and\n"
    "               collectives by their logical pattern, per communicator and in\n"
    "               total, computed on the compressed trace (with --rank R: what R\n"
    "               sends)\n"
    "  --matrix-svg FILE\n"
    "               write the matrix as an SVG heat map to FILE (with or\n"
    "               without --matrix)\n"
    "  --matrix-kind p2p|collective\n"
    "               the heat map's matrix: point-to-point (default) or collectives\n"
    "  --matrix-value bytes|messages\n"
    "               what the heat map's colours show (default bytes)\n"
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
      .flag({"--sites"}, o.sites)
      .flag({"--matrix"}, o.matrix)
      .text({"--matrix-svg"}, "a file name", o.matrix_svg)
      .choice<bool>({"--matrix-kind"}, {{"p2p", true}, {"collective", false}}, o.matrix_p2p)
      .choice<bool>({"--matrix-value"}, {{"bytes", true}, {"messages", false}}, o.matrix_bytes)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::stats
