// How far a trace's decoded per-call times are from the exact ones: the
// comparison of read_call_ticks (model/call_times.h) with the verification
// copy PILGRIM_VERIFY=1 writes (TRACE.verify.RANK.times: 16 bytes per
// call, int64 little-endian start tick then end tick, in call order). One
// copy of the check, used by the round-trip tests (pilgrim-verify --timing)
// and by pilgrim-stats --timing (which adds ratio and PSNR on top).
#pragma once

#include "pilgrim/timing_spec.h"
#include "pilgrim/trace_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim {

// Reads one rank's verification copy. False with a one-line error (missing
// file, size not a multiple of 16).
bool read_verify_times(const std::string &path, std::vector<int64_t> &start,
                       std::vector<int64_t> &end, std::string &error);

// The errors of one rank's (or several ranks', merged with add()) decoded
// times against the exact ones.
struct TimingError {
  uint64_t calls = 0;
  // Largest relative error: of a duration (end - start) against the exact
  // one, and of a start against its gap from the decoded previous end (the
  // codecs' closed loop, docs/FORMAT.md §7.10).
  double max_relative = 0;
  // Largest |decoded - exact| over every start and end, in ticks.
  int64_t max_absolute_ticks = 0;
  // Sum of squared tick errors of starts and ends, and the range of the
  // exact durations (for PSNR, docs/FORMAT.md).
  double sum_squared = 0;
  int64_t min_duration = INT64_MAX, max_duration = INT64_MIN;
  // Calls whose values are outside the mode's bound (see within()).
  uint64_t outside = 0;
  // The first such call, for messages (calls if none).
  uint64_t first_outside = 0;

  void add(const TimingError &other);
};

// Compares decoded with exact (same number of calls, else false with
// `error`). A call is within its bound (docs/FORMAT.md §7.10) when:
//   lossless:       start and end exact;
//   relative (EPS): |Δstart| <= EPS * |start - decoded previous end| (a
//                   chunk's first start exact) and |Δduration| <= EPS *
//                   duration;
//   absolute (TOL): |Δstart|, |Δend| <= TOL (in ticks).
// `bound_of_call`: the call's bound (EPS, or TOL in ticks), one per call (a
// per-function bound differs by call).
bool compare_times(const timing::Spec &spec, const std::vector<double> &bound_of_call,
                   const std::vector<int64_t> &start, const std::vector<int64_t> &end,
                   const std::vector<int64_t> &exact_start, const std::vector<int64_t> &exact_end,
                   TimingError &out, std::string &error);

// The whole check of one rank: its decoded ticks (read_call_ticks) against
// `trace_path`.verify.RANK.times, each call against its function's bound
// from META's timing_spec (a TOL converted to the rank's ticks). False with
// a one-line error when the trace has no per-call times, a file cannot be
// read or the call counts differ; a call outside its bound is not an error
// (out.outside counts them).
bool compare_rank_times(const Trace &trace, const std::string &trace_path, uint32_t rank,
                        TimingError &out, std::string &error);

// "TRACE.verify.RANK.times".
std::string verify_times_path(const std::string &trace_path, uint32_t rank);

} // namespace pilgrim
