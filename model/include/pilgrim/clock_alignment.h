// Rank 0's timeline: where a rank's clock tick falls on rank 0's clock, in
// seconds since rank 0's clock sync at MPI_Init (docs/FORMAT.md, "Clock
// block"; docs/design/clock.md).
#pragma once

#include "pilgrim/rank_clock.h"

#include <cstdint>

namespace pilgrim {

// The rank's tick as a tick of rank 0's clock. Both syncs present: the line
// through (init.tick, init.rank0_tick) and (finalize.tick,
// finalize.rank0_tick) (linear drift correction; extrapolated outside).
// One sync only: through that point with slope rank.ns_per_tick /
// rank0.ns_per_tick. No sync: the clocks are taken to agree at
// rank0.init.tick, with the same slope.
double rank0_ticks(const RankClock &rank, const RankClock &rank0, int64_t tick);

// Seconds on rank 0's timeline:
//   (rank0_ticks(tick) - rank0.init.tick) * rank0.ns_per_tick * 1e-9.
double aligned_seconds(const RankClock &rank, const RankClock &rank0, int64_t tick);

} // namespace pilgrim
