// pilgrim-diff --timing: two traces of the same calls (diff_traces found them
// identical) compared call by call on their per-call times (model/
// call_times.h): each call's duration and the gap before it (from the end of
// the rank's previous call to its start) within a relative and an absolute
// tolerance. MPI_Init, MPI_Init_thread and MPI_Finalize, and the gaps next
// to them, are not compared: their times are the launch's and the tracer's
// own work. Only meaningful for runs that make the same calls.
#pragma once

#include <string>

#include "pilgrim/trace_model.h"
#include "trace_diff.h"

namespace pilgrim::diff {

struct TimeTolerance {
  double relative = 0.1; // |b - a| <= relative * |a| ...
  double absolute = 0;   // ... or |b - a| <= absolute (seconds): within
};

// "" when both traces keep per-call times; otherwise one line naming the
// trace (`name_a` or `name_b`) that does not and what would.
std::string call_times_missing(const Trace &a, const Trace &b, const std::string &name_a,
                               const std::string &name_b);

// The first call whose duration or gap differs beyond `tolerance`, as
// diff_traces reports a call ("rank R call N: FUNCTION: duration differs:
// A vs B (+P%, tolerance T)"); r.identical otherwise. Throws TraceError
// when a rank's times do not decode.
DiffResult diff_call_times(const Trace &a, const Trace &b, const TimeTolerance &tolerance);

// "10%", "10% or 1.00 us": the tolerance as the messages print it.
std::string tolerance_text(const TimeTolerance &tolerance);

} // namespace pilgrim::diff
