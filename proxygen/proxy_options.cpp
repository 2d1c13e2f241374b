#include "proxy_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::proxygen {

namespace {

const cli::Help kHelp = {
    "pilgrim-proxygen [options] TRACE -o PROXY.cpp",
    "Writes a self-contained C++17 MPI program (a proxy app) that makes the MPI calls\n"
    "of TRACE, with the same arguments, on the same number of ranks. Build it with\n"
    "'mpicxx -std=c++17 PROXY.cpp -o proxy' under any MPI; tracing the proxy gives\n"
    "back the trace (compare with pilgrim-diff).",
    {{"-o, --output FILE", "where the proxy goes (default: stdout)"},
     {"--compute=auto|spin|sleep|none",
      "replay the time between calls as a busy wait (spin), a sleep, or not at all (none); "
      "auto (the default) spins unless a node has more ranks than cores, then sleeps "
      "(PILGRIM_PROXY_COMPUTE=spin|sleep|auto at run time overrides)"},
     {"--gaps=distribution|mean|exact",
      "with a per-call timing mode: replay before each call the mean of the gaps of its "
      "grammar position (mean, the default) or a draw from them; exact: each call's own gap, "
      "from FILE.gaps written beside the proxy (-o FILE) and read at start-up"},
     {"--ranks N", "refuse (exit status 2) unless the trace has N ranks"},
     {"--deterministic", "MPI_ANY_SOURCE receives whose source was recorded (MPI_Recv, "
                         "MPI_Probe, ..., and MPI_Irecv on MPI_COMM_WORLD by its completion) "
                         "use that source"},
     {"--order", "the proxy makes every matching call as the trace recorded it (each failed "
                 "poll, each MPI_Waitany/Waitsome/Testany/Testsome), keeping its wildcards, "
                 "and matches in the recorded order: alone by the order compiled into it, under "
                 "libpilgrim.so with PILGRIM_REPLAY=TRACE by the tracer, and then its trace "
                 "compares with TRACE exactly (docs/guide/replay.md)"},
     {"--io-dir DIR", "the proxy's MPI-IO files go in DIR (made if missing; default: a new "
                      "proxy-files.XXXXXX); at the end the proxy removes its files, and the "
                      "directory if it made it"},
     {"--keep-io-files", "the proxy leaves its files and scratch directory behind "
                         "(PILGRIM_PROXY_KEEP_FILES=1 at run time does too)"},
     {"--table-runs N", "a rule of N or more calls (default 64), and every rule when there are "
                        "many, is written as a table of steps, so the proxy compiles in seconds "
                        "whatever the trace; 0: never, 1: every rule"}},
    "the proxy was written",
    "",
    "a trace that cannot be read, a trace the generator cannot replay, a --ranks mismatch, "
    "or a proxy that cannot be written",
    "pilgrim-proxygen app.pilgrim -o proxy.cpp\n"
    "mpicxx -std=c++17 proxy.cpp -o proxy && mpirun -np 4 ./proxy",
    ""};

} // namespace

cli::CommandLine command_line(ProxyOptions &o) {
  cli::CommandLine c("pilgrim-proxygen", kHelp, kFormatVersion);
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
      .flag({"--order"}, o.order)
      .conflicts("--order", {"--deterministic"})
      .text({"--io-dir"}, "a directory", o.io_dir)
      .flag({"--keep-io-files"}, o.keep_io_files)
      .integer({"--table-runs"}, "a count of calls (0 for never)", 0, 1000000000ull, o.table_runs)
      .operands({&o.trace_path}, "no trace file given", "more than one trace given");
  return c;
}

} // namespace pilgrim::proxygen
