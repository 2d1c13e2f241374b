// Command line of pilgrim-stats.
#pragma once

#include <cstdint>
#include <string>

#include "command_line.h"

namespace pilgrim::stats {

struct StatsOptions {
  std::string trace_path;
  int64_t rank = -1;     // -1: all ranks
  bool timing = false;   // --timing: the timing quality report instead
  bool per_rank = false; // every rank, not only the slowest / the total
  int64_t top = 5;       // slowest ranks listed
};

// pilgrim-stats's options, bound to o.
cli::CommandLine command_line(StatsOptions &o);

} // namespace pilgrim::stats
