// Command line of pilgrim-proxygen.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pilgrim::proxygen {

enum class Compute { None, Spin, Sleep };

struct ProxyOptions {
  std::string trace_path;
  std::string output_path;   // -o; "-" or empty: stdout
  Compute compute = Compute::Spin;
  int64_t ranks = -1;        // --ranks N: refuse a trace with another rank count
  bool deterministic = false; // ANY_SOURCE receives use the recorded source
  std::string io_dir;         // --io-dir: the scratch directory of the proxy's files
  size_t table_runs = 64;     // --table-runs: runs of this many calls become tables; 0 never
  bool help = false;
  bool version = false;
};

struct UsageError {
  std::string message;
};

const char *usage_text();
ProxyOptions parse_options(int argc, char **argv); // throws UsageError

} // namespace pilgrim::proxygen
