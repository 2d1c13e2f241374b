// Command line of pilgrim-proxygen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "command_line.h"

namespace pilgrim::proxygen {

enum class Compute { None, Spin, Sleep, Auto };
// How per-call gaps are replayed (gap_replay.h).
enum class Gaps { Mean, Distribution, Exact };

struct ProxyOptions {
  std::string trace_path;
  std::string output_path; // -o; "-" or empty: stdout
  Compute compute = Compute::Auto;
  Gaps gaps = Gaps::Mean;     // with a per-call timing mode (README, Proxy fidelity: measured)
  int64_t ranks = -1;         // --ranks N: refuse a trace with another rank count
  bool deterministic = false; // ANY_SOURCE receives use the recorded source
  // --order: every matching call as recorded (failed polls, completions one
  // by one), wildcards kept, for a run under PILGRIM_REPLAY=TRACE
  // (docs/guide/replay.md, "Proxies").
  bool order = false;
  std::string io_dir;         // --io-dir: the scratch directory of the proxy's files
  bool keep_io_files = false; // --keep-io-files: the proxy leaves its files behind
  size_t table_runs = 64;     // --table-runs: runs of this many calls become tables; 0 never
};

// pilgrim-proxygen's options, bound to o.
cli::CommandLine command_line(ProxyOptions &o);

} // namespace pilgrim::proxygen
