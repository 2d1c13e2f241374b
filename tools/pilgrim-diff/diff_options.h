// Command line of pilgrim-diff.
#pragma once

#include <string>

#include "command_line.h"

namespace pilgrim::diff {

struct DiffOptions {
  std::string a, b;        // the two traces
  bool timing = false;     // also compare per-signature mean durations
  double tolerance = 0.25; // relative tolerance of --timing
  bool relaxed = false;    // --relaxed: skip failed polls, ANY_SOURCE matches any rank
  bool strict = false;     // --strict: also compare values from the environment
};

// pilgrim-diff's options, bound to o.
cli::CommandLine command_line(DiffOptions &o);

} // namespace pilgrim::diff
