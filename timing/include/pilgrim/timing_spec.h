// What PILGRIM_TIMING asks for: a mode and its bounds, parsed once at
// MPI_Init and stored in the trace (docs/FORMAT.md, META timing_spec) so that
// a reader decodes with exactly the bounds the runtime used.
//
// Syntax (README "PILGRIM_TIMING"):
//   MODE[:VALUE[,K]][,MPI_Function=VALUE]...
//   aggregate | none | lossless | cfg:EPS | hist:EPS,K | pred:EPS | zfp:TOL
//   | pred-clustered:EPS | zfp-clustered:TOL
// EPS is a relative bound (0 < EPS < 1), TOL an absolute one in seconds
// (> 0), K the hist table's bit count (1..16). A per-function value replaces
// the mode's value for the calls of that function (a larger EPS for long
// calls).
#pragma once

#include "pilgrim/file_layout.h"
#include "pilgrim/timing_mode.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::timing {

// The mode is META's timing_mode itself (bytes/include/pilgrim/timing_mode.h):
// one enum, so that the runtime's mode and the trace's value cannot part.
using Method = ::pilgrim::TimingMode;

struct FunctionBound {
  std::string function; // "MPI_Wait"
  double bound = 0;     // EPS or TOL, as the mode's own value
};

struct Spec {
  Method method = Method::Aggregate;
  double bound = 0;  // EPS (relative) or TOL (absolute, seconds); 0 where the mode has none
  int hist_bits = 0; // K, hist only
  std::vector<FunctionBound> per_function;
  // The format version whose chunk layouts apply (not part of the text):
  // the runtime writes the current one, a reader sets the file's.
  uint16_t format_version = kFormatVersion;

  bool per_call() const { return method >= Method::Lossless; }
  bool absolute() const { return method == Method::Zfp || method == Method::ZfpClustered; }
  bool lossy() const { return method >= Method::Cfg; }
  // The bound of one function's calls: its own value if it has one.
  double bound_of(const std::string &function) const;
};

// Parses PILGRIM_TIMING's value. On a wrong value returns false and sets
// `error` to one line naming what is wrong and what is allowed.
bool parse_spec(const std::string &text, Spec &out, std::string &error);
// The canonical text of a spec (parse_spec(spec_text(s)) == s).
std::string spec_text(const Spec &s);
// "lossless", "hist", ...: the mode's name alone.
const char *method_name(Method m);

} // namespace pilgrim::timing
