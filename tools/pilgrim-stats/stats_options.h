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
  bool sites = false;    // --sites: calls, bytes and time per call site instead
  bool per_rank = false; // every rank, not only the slowest / the total
  int64_t top = 5;       // slowest ranks listed
  // The communication matrix (docs/STATS.md, "Communication matrix").
  bool matrix = false;      // --matrix: print it as CSV instead of the report
  std::string matrix_svg;   // --matrix-svg FILE: write its heat map to FILE
  bool matrix_p2p = true;   // --matrix-kind p2p|collective: which the heat map shows
  bool matrix_bytes = true; // --matrix-value bytes|messages: what its colours show
};

// pilgrim-stats's options, bound to o.
cli::CommandLine command_line(StatsOptions &o);

} // namespace pilgrim::stats
