// Every call's start and end, decoded from a per-call timing mode and placed
// on rank 0's timeline (the clock alignment of docs/FORMAT.md, "Clock"). The
// one way readers get per-call times: pilgrim-dump, pilgrim-stats,
// pilgrim-diff --timing and pilgrim-proxygen all read them here.
#pragma once

#include "pilgrim/rank_clock.h"
#include "pilgrim/timing_spec.h"
#include "pilgrim/trace_model.h" // Trace

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim {

// Seconds since rank 0's clock sync at MPI_Init, on rank 0's timeline.
struct CallTime {
  double start = 0;
  double end = 0;
};

// Whether the trace keeps each call's times (a per-call timing mode).
bool has_call_times(const Trace &trace);

// One rank's calls in call order (the order of RankCalls), aligned. False
// with a one-line error if the trace has no per-call times or the rank's
// timing is corrupt or does not match its number of calls.
bool read_call_times(const Trace &trace, uint32_t rank, std::vector<CallTime> &out,
                     std::string &error);

// The same calls as the rank's own clock ticks, before alignment, exactly as
// decoded (what a verification copy is compared with).
bool read_call_ticks(const Trace &trace, uint32_t rank, std::vector<int64_t> &start,
                     std::vector<int64_t> &end, std::string &error);

// The rank's clock block (docs/FORMAT.md §7.1.1). `present` false where
// the section has none. False with a one-line error if the rank has no
// RANK_TIMING section or its clock block is damaged.
bool read_rank_clock(const Trace &trace, uint32_t rank, RankClock &clock, bool &present,
                     std::string &error);

// Seconds per tick of the rank's clock, from its calibration.
double seconds_per_tick(const Trace &trace, uint32_t rank);

// What the decoder works with (and the verification compares by): each of
// the rank's calls' merged CST entry, in call order (the chunks' groups),
// and each entry's bound in the decoder's unit (timing_chunk.h: EPS, or
// Spec::bound_of's TOL in seconds as the rank's ticks, by the clock block's
// calibration, the same the runtime coded with). Throw TraceError on a
// damaged rank.
std::vector<uint32_t> call_entries(const Trace &trace, uint32_t rank);
std::vector<double> entry_bounds(const Trace &trace, uint32_t rank, const timing::Spec &spec);

} // namespace pilgrim
