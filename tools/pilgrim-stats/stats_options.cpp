#include "stats_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::stats {

namespace {

const cli::Help kHelp = {
    "pilgrim-stats [--rank R] [--top N | --per-rank] TRACE\n"
    "  or:  pilgrim-stats --timing [--rank R] [--per-rank] TRACE\n"
    "  or:  pilgrim-stats --sites [--rank R] TRACE\n"
    "  or:  pilgrim-stats [--matrix] [--matrix-svg FILE [--matrix-kind K] [--matrix-value V]] "
    "[--rank R] TRACE",
    "Prints statistics of a Pilgrim trace: its header block, then per MPI\n"
    "function the calls, the bytes their buffers hold and their timing (time\n"
    "inside the call, time between calls of the same signature), then where the\n"
    "time went: time in MPI per function, the ranks with the most time in MPI\n"
    "and the imbalance of each collective (per rank: per-call timing modes\n"
    "only). Times in ns, us, ms or s. `pilgrim-dump --stats TRACE` prints the same.",
    {{"--rank R", "only rank R"},
     {"--top N", "list the N ranks with the most time in MPI (default 5)"},
     {"--per-rank", "list every rank (with --timing: a line per rank after the total)"},
     {"--timing", "instead: what the per-call timing mode kept: compression ratio against 2 x "
                  "8-byte doubles per call and, against the verification copies of "
                  "PILGRIM_VERIFY=1, the largest relative and absolute errors and the PSNR of "
                  "durations and gaps"},
     {"--sites", "instead: per call site (file:line:col in function, from the program's debug "
                 "information), the calls made there, the bytes their buffers hold and the "
                 "time inside them"},
     {"--matrix", "instead: the communication matrix as CSV (kind, communicator, sender, "
                  "receiver, messages, bytes), point-to-point and collectives by their logical "
                  "pattern, per communicator and in total, computed on the compressed trace "
                  "(with --rank R: what R sends)"},
     {"--matrix-svg FILE", "write the matrix as an SVG heat map to FILE (with or without "
                           "--matrix)"},
     {"--matrix-kind p2p|collective", "the heat map's matrix: point-to-point (default) or "
                                      "collectives"},
     {"--matrix-value bytes|messages", "what the heat map's colours show (default bytes)"}},
    "the report was printed (and the heat map written)",
    "",
    "a trace that cannot be read, or a heat map that cannot be written",
    "pilgrim-stats --top 3 app.pilgrim\n"
    "pilgrim-stats --matrix --matrix-svg matrix.svg app.pilgrim > matrix.csv",
    "The output format is described in docs/STATS.md."};

} // namespace

cli::CommandLine command_line(StatsOptions &o) {
  cli::CommandLine c("pilgrim-stats", kHelp, kFormatVersion);
  c.integer({"--rank"}, "a non-negative integer", 0, 0xffffffffull, o.rank)
      .integer({"--top"}, "a positive integer", 1, 0xffffffffull, o.top)
      .flag({"--per-rank"}, o.per_rank)
      .flag({"--timing"}, o.timing)
      .flag({"--sites"}, o.sites)
      .flag({"--matrix"}, o.matrix)
      .text({"--matrix-svg"}, "a file name", o.matrix_svg)
      .choice<bool>({"--matrix-kind"}, {{"p2p", true}, {"collective", false}}, o.matrix_p2p)
      .choice<bool>({"--matrix-value"}, {{"bytes", true}, {"messages", false}}, o.matrix_bytes)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given")
      // --timing, --sites and --matrix (or --matrix-svg) are different
      // reports; --top and --per-rank shape the default one (--per-rank
      // --timing's too), --matrix-kind and --matrix-value the heat map.
      .conflicts("--timing", {"--sites", "--matrix", "--matrix-svg"})
      .conflicts("--sites", {"--matrix", "--matrix-svg"})
      .conflicts("--top", {"--per-rank", "--timing", "--sites", "--matrix", "--matrix-svg"})
      .conflicts("--per-rank", {"--sites", "--matrix", "--matrix-svg"})
      .needs("--matrix-kind", {"--matrix-svg"})
      .needs("--matrix-value", {"--matrix-svg"});
  return c;
}

} // namespace pilgrim::stats
