#include "proxy_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::proxygen {

namespace {

const char kUsage[] =
    "Usage: pilgrim-proxygen [options] TRACE -o PROXY.cpp\n"
    "\n"
    "Writes a self-contained C++17 MPI program (a proxy app) that makes the MPI calls\n"
    "of TRACE, with the same arguments, on the same number of ranks. Build it with\n"
    "'mpicxx -std=c++17 PROXY.cpp -o proxy' under any MPI; tracing the proxy gives\n"
    "back the trace (compare with pilgrim-diff).\n"
    "\n"
    "Options:\n"
    "  -o FILE                 where the proxy goes (default: stdout)\n"
    "  --compute=auto|spin|sleep|none\n"
    "                          replay the time between calls as a busy wait (spin),\n"
    "                          a sleep, or not at all (none); auto (the default)\n"
    "                          spins unless a node has more ranks than cores, then\n"
    "                          sleeps (PILGRIM_PROXY_COMPUTE=spin|sleep|auto at run\n"
    "                          time overrides)\n"
    "  --gaps=distribution|mean|exact\n"
    "                          with a per-call timing mode: replay before each call\n"
    "                          the mean of the gaps of its grammar position (mean,\n"
    "                          the default) or a draw from them; exact:\n"
    "                          each call's own gap, from FILE.gaps written beside\n"
    "                          the proxy (-o FILE) and read at start-up\n"
    "  --ranks N               refuse (exit 1) unless the trace has N ranks\n"
    "  --deterministic         MPI_ANY_SOURCE receives whose source was recorded\n"
    "                          (MPI_Recv, MPI_Probe, ..., and MPI_Irecv on\n"
    "                          MPI_COMM_WORLD by its completion) use that source\n"
    "  --io-dir DIR            the proxy's MPI-IO files go in DIR (made if missing;\n"
    "                          default: a new proxy-files.XXXXXX); at the end the\n"
    "                          proxy removes its files, and the directory if it made it\n"
    "  --keep-io-files         the proxy leaves its files and scratch directory behind\n"
    "                          (PILGRIM_PROXY_KEEP_FILES=1 at run time does too)\n"
    "  --table-runs N          a rule of N or more calls (default 64), and every rule\n"
    "                          when there are many, is written as a table of steps,\n"
    "                          so the proxy compiles in seconds whatever the trace;\n"
    "                          0: never, 1: every rule\n"
    "  --help                  show this help and exit\n"
    "  --version               show the version and exit\n"
    "\n"
    "Exit status: 0 proxy written; 1 unreadable trace, a trace the generator cannot\n"
    "replay, or --ranks mismatch; 2 usage error.\n";

} // namespace

cli::CommandLine command_line(ProxyOptions &o) {
  cli::CommandLine c("pilgrim-proxygen", kUsage, kFormatVersion);
  // -o "" and -o - both mean stdout, as no -o does.
  c.value({"-o", "--output"}, "a file", [&o](const std::string &v) { o.output_path = v; })
      .choice({"--compute"},
              {{"auto", Compute::Auto},
               {"none", Compute::None},
               {"spin", Compute::Spin},
               {"sleep", Compute::Sleep}},
              o.compute)
      .choice({"--gaps"},
              {{"distribution", Gaps::Distribution}, {"mean", Gaps::Mean}, {"exact", Gaps::Exact}},
              o.gaps)
      .integer({"--ranks"}, "a positive integer", 1, 0xffffffffull, o.ranks)
      .flag({"--deterministic"}, o.deterministic)
      .text({"--io-dir"}, "a directory", o.io_dir)
      .flag({"--keep-io-files"}, o.keep_io_files)
      .integer({"--table-runs"}, "a count of calls (0 for never)", 0, 1000000000ull, o.table_runs)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::proxygen
