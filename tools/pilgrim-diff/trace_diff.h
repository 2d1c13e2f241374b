// Comparing two traces call by call through the format library.
#pragma once

#include <cstdint>
#include <string>

#include "pilgrim/trace_model.h"

namespace pilgrim::diff {

struct DiffResult {
  bool identical = true;
  std::string message; // the first difference (one line), when !identical
  uint64_t calls = 0;  // calls compared (of trace A)
};

struct DiffSettings {
  bool timing = false;
  double tolerance = 0.25;
  bool relaxed = false;
  bool strict = false; // also compare values from the environment (strict_outputs.h)
};

// Throws TraceError when a signature of either trace does not decode.
DiffResult diff_traces(const Trace &a, const Trace &b, const DiffSettings &settings);

} // namespace pilgrim::diff
