#include "dump_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::dump {

namespace {

const char kUsage[] =
    "Usage: pilgrim-dump [--rank R] [--no-sites] [--grammar] [--stats] [--comms] TRACE\n"
    "\n"
    "Prints a Pilgrim trace as text: a header block, then every call of every rank\n"
    "in order, one line per call, with all its arguments.\n"
    "\n"
    "Options:\n"
    "  --rank R     only rank R\n"
    "  --no-sites   list the calls without their call sites (to compare the\n"
    "               calls of traces made from different sources)\n"
    "  --grammar    print each rank's call signature table and grammar rules\n"
    "               instead of the call listing\n"
    "  --stats      print per-function statistics (calls, bytes, durations)\n"
    "               instead of the call listing, as pilgrim-stats does\n"
    "  --comms      list every communicator with its members as world ranks\n"
    "               instead of the call listing\n"
    "  --help       show this help and exit\n"
    "  --version    show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 unreadable or invalid trace, 2 usage error.\n"
    "The output format is described in docs/DUMP.md.\n";

} // namespace

cli::CommandLine command_line(DumpOptions &o) {
  cli::CommandLine c("pilgrim-dump", kUsage, kFormatVersion);
  c.integer({"--rank"}, "a non-negative integer", 0, 0xffffffffull, o.rank)
      .flag({"--no-sites"}, o.no_sites)
      .flag({"--grammar"}, o.grammar)
      .flag({"--stats"}, o.stats)
      .flag({"--comms"}, o.comms)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::dump
