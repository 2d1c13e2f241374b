#include "clock_sync.h"

#include "clock.h"

namespace pilgrim::rt {

namespace {

ClockSync exchange(MPI_Comm comm, int rank, int size) {
  ClockSync mine;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      // best[0] = r's tick, best[1] = rank 0's midpoint, best[2] = round trip
      int64_t best[3] = {0, 0, INT64_MAX};
      for (int i = 0; i < kClockSyncRounds; ++i) {
        int64_t theirs = 0;
        const int64_t sent = ticks();
        PMPI_Send(nullptr, 0, MPI_BYTE, r, kClockSyncTag, comm);
        PMPI_Recv(&theirs, 1, MPI_INT64_T, r, kClockSyncTag, comm, MPI_STATUS_IGNORE);
        const int64_t back = ticks();
        if (back - sent < best[2]) {
          best[0] = theirs;
          best[1] = sent + (back - sent) / 2;
          best[2] = back - sent;
        }
      }
      PMPI_Send(best, 3, MPI_INT64_T, r, kClockSyncTag, comm);
    }
    mine.tick = mine.rank0_tick = ticks();
    mine.rtt_rank0_ticks = 0;
    return mine;
  }
  for (int i = 0; i < kClockSyncRounds; ++i) {
    PMPI_Recv(nullptr, 0, MPI_BYTE, 0, kClockSyncTag, comm, MPI_STATUS_IGNORE);
    const int64_t now = ticks();
    PMPI_Send(&now, 1, MPI_INT64_T, 0, kClockSyncTag, comm);
  }
  int64_t best[3];
  PMPI_Recv(best, 3, MPI_INT64_T, 0, kClockSyncTag, comm, MPI_STATUS_IGNORE);
  mine.tick = best[0];
  mine.rank0_tick = best[1];
  mine.rtt_rank0_ticks = best[2];
  return mine;
}

} // namespace

ClockSync sync_with_rank0(MPI_Comm comm, int rank, int size, int64_t *elapsed_ns) {
  const int64_t start = monotonic_ns();
  const ClockSync mine = exchange(comm, rank, size);
  if (elapsed_ns)
    *elapsed_ns = monotonic_ns() - start;
  return mine;
}

} // namespace pilgrim::rt
