// The clock exchange with rank 0 at MPI_Init and MPI_Finalize
// (docs/design/clock.md): rank 0 plays a short ping-pong with each
// other rank in turn on the runtime's private communicator; the shortest
// round trip gives the offset.
#pragma once

#include "pilgrim/rank_clock.h"

#include <mpi.h>

namespace pilgrim::rt {

// Round trips per rank; the shortest wins.
constexpr int kClockSyncRounds = 8;
// The tag of the exchange on the private communicator (a dup of
// MPI_COMM_WORLD the application never sees; trace_reduction uses 7,
// idup_exchange 0x6000 and up).
constexpr int kClockSyncTag = 11;

// Collective over `private_comm` (size ranks, this one `rank`). Rank 0
// returns {t, t, 0}; rank r its tick when it answered rank 0's fastest ping,
// rank 0's tick at the midpoint of that round trip, and the round trip in
// rank 0's ticks. Reads ticks() (clock.h): choose the clock first. If
// elapsed_ns is given, it receives the call's duration (CLOCK_MONOTONIC).
ClockSync sync_with_rank0(MPI_Comm private_comm, int rank, int size, int64_t *elapsed_ns = nullptr);

} // namespace pilgrim::rt
