// pilgrim-stats --matrix / --matrix-svg: the communication matrix as CSV on
// stdout and as an SVG heat map in a file (docs/STATS.md, "Communication
// matrix"); what it leaves out goes to stderr, one note a line.
#pragma once

#include <string>

#include "text_output.h"
#include "trace_input.h"

namespace pilgrim::stats {

struct MatrixRequest {
  bool csv = false;     // print the CSV to `out`
  std::string svg_path; // write the heat map there (empty: none)
  bool p2p = true;      // the heat map's matrix: point-to-point, else collectives
  bool bytes = true;    // its colours: bytes, else messages
};

// Throws std::runtime_error when the SVG cannot be written.
void print_matrix(TextOutput &out, const TraceInput &input, const MatrixRequest &request);

} // namespace pilgrim::stats
