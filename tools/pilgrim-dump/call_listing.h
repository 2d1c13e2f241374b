// The default pilgrim-dump output: every call of a rank, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/call_times.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// One call as pilgrim-dump prints it: "[thread T] " (other threads than the
// main one) and the call's text.
std::string call_text(const Call &call);

// "rank R call N: TEXT" per call of the rank's walk (RankCalls), each call
// resolved at its position. A CST entry's text is kept while what ids mean
// does not change (RankCalls::meaning_version), so a loop costs one
// resolution and formatting per entry. With `times` (a per-call timing
// mode: the rank's calls' times, model/call_times.h) each line has the
// call's start and end on the aligned timeline: "rank R call N [S s to E s]: ".
// Each call the application made ends with " at SITE" (docs/DUMP.md, "Call
// sites") unless `sites` is false.
void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank, const std::vector<CallTime> *times = nullptr, bool sites = true);

// "[1.500012345 s to 1.500013400 s]": seconds on rank 0's timeline, to the
// nanosecond (every call of a run reads apart from its neighbours).
std::string call_time_text(const CallTime &t);

// "tsc, resolution 10.0 ns (rank 0)": rank 0's clock as the header shows it.
std::string clock_text(const RankClock &clock);

} // namespace pilgrim::dump
