// Command line of pilgrim-diff.
#pragma once

#include <string>

#include "command_line.h"

namespace pilgrim::diff {

struct DiffOptions {
  std::string a, b;         // the two traces
  bool timing = false;      // also compare every call's duration and gap (per-call modes)
  bool mean_timing = false; // also compare per-signature mean durations
  double tolerance = -1; // relative tolerance; -1: the default (0.1 --timing, 0.25 --mean-timing)
  double abs_tolerance = 0; // absolute tolerance of --timing, seconds
  bool relaxed = false;     // --relaxed: skip failed polls, ANY_SOURCE matches any rank
  bool strict = false;      // --strict: also compare values from the environment
  bool order = false;       // --order: compare the matching events' order only (order_diff.h)
};

// pilgrim-diff's options, bound to o.
cli::CommandLine command_line(DiffOptions &o);

} // namespace pilgrim::diff
