#include "pilgrim/settings_table.h"

namespace pilgrim::settings {

const char *reader_name(Reader r) {
  switch (r) {
  case Reader::Tracer: return "tracer";
  case Reader::Proxy: return "proxy";
  case Reader::Compiler: return "compiler";
  case Reader::Scripts: return "scripts";
  case Reader::Tests: return "tests";
  case Reader::Bench: return "bench";
  }
  return "?";
}

const std::vector<Setting> &table() {
  using R = Reader;
  static const std::vector<Setting> kTable = {
      // The tracer, libpilgrim.so: read at MPI_Init (docs/guide/tracing.md).
      {"PILGRIM_OUTPUT", R::Tracer, {}, "a file path",
       "./PROGRAM.pilgrim, or ./PROGRAM.N.pilgrim with the first free N when that exists",
       "where the trace goes; a given path is replaced if it exists"},
      {"PILGRIM_QUIET", R::Tracer, {"0", "1"}, "", "0",
       "1: no line at MPI_Finalize saying where the trace went (failures still print)"},
      {"PILGRIM_SUMMARY", R::Tracer, {"0", "1"}, "", "0",
       "1: rank 0 prints the calls per function and MPI_Finalize's costs to stdout"},
      {"PILGRIM_TIMING", R::Tracer, {},
       "aggregate, none, lossless, cfg:EPS, hist:EPS,K, pred:EPS, zfp:TOL, pred-clustered:EPS or "
       "zfp-clustered:TOL, then ,MPI_Function=VALUE bounds",
       "aggregate", "what the trace keeps of each call's time (docs/guide/timing.md)"},
      {"PILGRIM_TIMING_THREAD", R::Tracer, {"0", "1"}, "", "1",
       "1: per-call times are encoded on a thread of their own"},
      {"PILGRIM_CLOCK", R::Tracer, {"tsc", "monotonic"}, "",
       "tsc where the CPU has an invariant TSC, else monotonic", "the clock calls are timed with"},
      {"PILGRIM_RANKS", R::Tracer, {"absolute", "relative", "cartesian"}, "", "cartesian",
       "how peer ranks are encoded: as given, relative to the caller, or as grid offsets"},
      {"PILGRIM_SITES", R::Tracer, {"off", "on"}, "", "on",
       "on: each call carries its source site (file:line)"},
      {"PILGRIM_START", R::Tracer, {"off", "on"}, "", "on",
       "off: tracing starts paused until PILGRIM_TRACE_ON() or a region turns it on"},
      {"PILGRIM_POSIX", R::Tracer, {"off", "on"}, "", "off",
       "on: POSIX I/O calls (open, read, write, ...) are recorded too"},
      {"PILGRIM_VERIFY", R::Tracer, {"0", "1"}, "", "0",
       "1: each rank also writes its calls as recorded, for pilgrim-verify"},
      {"PILGRIM_REPLAY", R::Tracer, {}, "a trace file path", "none: no replay",
       "order replay: wildcard receives, probes, completions and polls match as in this trace "
       "(docs/guide/replay.md)"},
      {"PILGRIM_REPLAY_WATCHDOG", R::Tracer, {}, "a positive number of seconds", "60",
       "order replay: how long a rank waits for the recorded message or request before it "
       "reports a divergence"},
      // The proxies pilgrim-proxygen writes: read when a proxy starts.
      {"PILGRIM_PROXY_COMPUTE", R::Proxy, {"spin", "sleep", "auto"}, "",
       "as generated (auto: sleep when a node has more ranks than cores)",
       "how the proxy replays computation between calls"},
      {"PILGRIM_PROXY_CORES", R::Proxy, {}, "a positive number of cores",
       "the cores the node's ranks may run on", "the node's cores, for PILGRIM_PROXY_COMPUTE=auto"},
      {"PILGRIM_PROXY_GAPS", R::Proxy, {}, "a file path", "the gaps file written beside the proxy",
       "the per-call gaps of a proxy generated with exact gaps"},
      {"PILGRIM_PROXY_REPLAY_WATCHDOG", R::Proxy, {}, "a positive number of seconds", "60",
       "a proxy of pilgrim-proxygen --order run without a tracer: how long a rank waits for the "
       "recorded message or request before it reports a divergence"},
      {"PILGRIM_PROXY_FILES", R::Proxy, {}, "a directory",
       "as generated, else a new scratch directory", "where the proxy's replayed I/O puts its files"},
      {"PILGRIM_PROXY_KEEP_FILES", R::Proxy, {}, "0, or anything else to keep them", "0",
       "keep the replayed I/O's files after the proxy ends"},
      // pilgrim-cc and pilgrim-cxx.
      {"PILGRIM_CC", R::Compiler, {}, "a C compiler command that is clang",
       "the clang of the LLVM Pilgrim was built with",
       "the compiler pilgrim-cc runs with the plugin"},
      {"PILGRIM_CXX", R::Compiler, {}, "a C++ compiler command that is clang++",
       "the clang++ of the LLVM Pilgrim was built with",
       "the compiler pilgrim-cxx runs with the plugin"},
      // The build and test scripts (scripts/).
      {"PILGRIM_JOBS", R::Scripts, {}, "a positive number", "2",
       "parallel compile jobs of scripts/build.sh and scripts/fuzz.sh"},
      {"PILGRIM_FUZZ_SECONDS", R::Scripts, {}, "a positive number of seconds", "60",
       "how long scripts/fuzz.sh fuzzes the trace reader"},
      {"PILGRIM_FUZZ_BUILD", R::Scripts, {}, "a directory", "build/fuzz",
       "the build folder of scripts/fuzz.sh"},
      {"PILGRIM_BUILD_DIR", R::Tests, {}, "a build directory", "none: lit's --param build_dir",
       "the build the lit suite tests"},
      {"PILGRIM_TEST_CLOCK_OFFSET_NS", R::Tests, {}, "an integer, at most 10^12 either way", "0",
       "tests only: the tracer skews rank r's monotonic clock by r times this many ns"},
      // The benchmarks (bench/).
      {"PILGRIM_BENCH_ITERS", R::Bench, {}, "iteration counts", "100 1000 10000",
       "bench/matrix_cost.sh's iteration counts"},
      {"PILGRIM_BENCH_PROGRAMS", R::Bench, {}, "PROGRAM:ARGS words", "all",
       "bench/trace_size.sh's programs"},
      {"PILGRIM_BENCH_RANKS_3D", R::Bench, {}, "rank counts", "8 27 64",
       "bench/trace_size.sh's 3-D stencil rank counts"},
      {"PILGRIM_BENCH_REPEAT", R::Bench, {}, "a positive number", "5",
       "bench/sites_cost.sh's repetitions"},
      {"PILGRIM_BENCH_SITES", R::Bench, {}, "PROGRAM:RANKS words",
       "halo2d:4 halo2d:9 halo3d:8 master_worker:4 master_worker:9", "bench/sites_cost.sh's runs"},
      {"PILGRIM_BENCH_TIMEOUT", R::Bench, {}, "seconds", "600",
       "a benchmark step longer than this shows as failed"},
      {"PILGRIM_TIMING_CALLS", R::Bench, {}, "a number of calls", "1000000000",
       "bench/timing_stream.sh's synthetic call count"},
  };
  return kTable;
}

const Setting *find(std::string_view name) {
  for (const Setting &s : table())
    if (name == s.name)
      return &s;
  return nullptr;
}

std::string allowed_values(const Setting &s) {
  if (s.choices.empty())
    return s.values;
  std::string allowed;
  for (size_t i = 0; i < s.choices.size(); ++i)
    allowed += (i == 0 ? "" : ", ") + s.choices[i];
  return allowed;
}

std::string invalid_value(const Setting &s, std::string_view value) {
  return "invalid " + std::string(s.name) + "='" + std::string(value) +
         "' (allowed: " + allowed_values(s) + ")";
}

} // namespace pilgrim::settings
