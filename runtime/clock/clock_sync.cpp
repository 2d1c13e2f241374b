#include "clock_sync.h"

#include "clock.h"

#include <ctime>
#include <vector>

namespace pilgrim::rt {

namespace {

// A receive that stops spinning once it has waited 1 ms: ranks wait their
// turn (rank 0 serves them one at a time) asleep, naps growing from 50 us to
// 1 ms, so that on an oversubscribed node they leave the cores to rank 0 and
// the rank it is timing. A rank served within 1 ms never sleeps; the nap
// only delays the first of its 8 round trips, which the shortest one outruns.
void patient_recv(void *buf, int count, MPI_Datatype type, MPI_Comm comm) {
  MPI_Request req;
  PMPI_Irecv(buf, count, type, 0, kClockSyncTag, comm, &req);
  const int64_t start = monotonic_ns();
  long nap_ns = 50000;
  int done = 0;
  for (;;) {
    PMPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    if (monotonic_ns() - start > 1000000) {
      const timespec nap{0, nap_ns};
      nanosleep(&nap, nullptr);
      nap_ns = nap_ns * 2 > 1000000 ? 1000000 : nap_ns * 2;
    }
  }
}

ClockSync exchange(MPI_Comm comm, int rank, int size) {
  ClockSync mine;
  if (rank == 0) {
    // Per rank: its tick, rank 0's midpoint, the round trip (the shortest).
    std::vector<int64_t> best(3 * static_cast<size_t>(size), 0);
    for (int r = 1; r < size; ++r) {
      int64_t *b = &best[3 * static_cast<size_t>(r)];
      b[2] = INT64_MAX;
      for (int i = 0; i < kClockSyncRounds; ++i) {
        int64_t theirs = 0;
        const int64_t sent = ticks();
        PMPI_Send(nullptr, 0, MPI_BYTE, r, kClockSyncTag, comm);
        PMPI_Recv(&theirs, 1, MPI_INT64_T, r, kClockSyncTag, comm, MPI_STATUS_IGNORE);
        const int64_t back = ticks();
        if (back - sent < b[2]) {
          b[0] = theirs;
          b[1] = sent + (back - sent) / 2;
          b[2] = back - sent;
        }
      }
    }
    // The results once everyone is done: served ranks wait asleep too.
    for (int r = 1; r < size; ++r)
      PMPI_Send(&best[3 * static_cast<size_t>(r)], 3, MPI_INT64_T, r, kClockSyncTag, comm);
    mine.tick = mine.rank0_tick = ticks();
    mine.rtt_rank0_ticks = 0;
    return mine;
  }
  for (int i = 0; i < kClockSyncRounds; ++i) {
    if (i == 0)
      patient_recv(nullptr, 0, MPI_BYTE, comm);
    else
      PMPI_Recv(nullptr, 0, MPI_BYTE, 0, kClockSyncTag, comm, MPI_STATUS_IGNORE);
    const int64_t now = ticks();
    PMPI_Send(&now, 1, MPI_INT64_T, 0, kClockSyncTag, comm);
  }
  int64_t best[3];
  patient_recv(best, 3, MPI_INT64_T, comm);
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
