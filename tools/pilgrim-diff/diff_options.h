// Command line of pilgrim-diff.
#pragma once

#include <string>

namespace pilgrim::diff {

struct DiffOptions {
  std::string a, b;        // the two traces
  bool timing = false;     // also compare per-signature mean durations
  double tolerance = 0.25; // relative tolerance of --timing
  bool relaxed = false;    // --relaxed: skip failed polls, ANY_SOURCE matches any rank
  bool strict = false;     // --strict: also compare values from the environment
  bool help = false;
  bool version = false;
};

struct UsageError {
  std::string message;
};

const char *usage_text();
// Throws UsageError.
DiffOptions parse_options(int argc, char **argv);

} // namespace pilgrim::diff
