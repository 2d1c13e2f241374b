#include "dump_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::dump {

namespace {

const cli::Help kHelp = {
    "pilgrim-dump [--rank R] [--no-sites | [--grammar] [--stats] [--comms]] TRACE",
    "Prints a Pilgrim trace as text: a header block, then every call of every rank\n"
    "in order, one line per call, with all its arguments.",
    {{"--rank R", "only rank R"},
     {"--no-sites", "list the calls without their call sites (to compare the calls of traces "
                    "made from different sources)"},
     {"--grammar", "print each rank's call signature table and grammar rules instead of the "
                   "call listing"},
     {"--stats", "print per-function statistics (calls, bytes, durations) instead of the call "
                 "listing, as pilgrim-stats does"},
     {"--comms", "list every communicator with its members as world ranks instead of the call "
                 "listing"}},
    "the trace was printed",
    "",
    "a trace that cannot be read",
    "pilgrim-dump --rank 1 app.pilgrim | head",
    "The output format is described in docs/DUMP.md."};

} // namespace

cli::CommandLine command_line(DumpOptions &o) {
  cli::CommandLine c("pilgrim-dump", kHelp, kFormatVersion);
  c.integer({"--rank"}, "a non-negative integer", 0, 0xffffffffull, o.rank)
      .flag({"--no-sites"}, o.no_sites)
      .flag({"--grammar"}, o.grammar)
      .flag({"--stats"}, o.stats)
      .flag({"--comms"}, o.comms)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given")
      // --grammar, --stats and --comms print (together) in place of the call
      // listing, which --no-sites shapes.
      .conflicts("--no-sites", {"--grammar", "--stats", "--comms"});
  return c;
}

} // namespace pilgrim::dump
