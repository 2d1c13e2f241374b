// onesided: one-sided communication (RMA).
//
// MPI_Win_create and MPI_Win_allocate windows; active target synchronisation
// with MPI_Win_fence and with MPI_Win_post/start/complete/wait (groups from
// MPI_Win_get_group); passive target synchronisation with
// MPI_Win_lock/unlock and MPI_Win_lock_all/unlock_all plus MPI_Win_flush,
// MPI_Win_flush_all, MPI_Win_flush_local and MPI_Win_flush_local_all;
// MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate, MPI_Fetch_and_op
// (MPI_SUM and MPI_NO_OP), MPI_Compare_and_swap; MPI_Win_free.
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <algorithm>
#include <vector>

namespace {

// Check that the values gathered from all ranks form a permutation of 0..n-1.
void check_permutation(int mine, int n, const char *what) {
  std::vector<int> all(n, -1);
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  for (int i = 0; i < n; ++i)
    CHECK(all[i] == i, "%s: fetched values are not a permutation of 0..%d (slot %d is %d)", what,
          n - 1, i, all[i]);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("onesided");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;

  // Window A (MPI_Win_create) layout, in ints:
  //   [0, n)  one slot per origin rank for MPI_Put
  //   n       MPI_Accumulate target        n+1  MPI_Get_accumulate counter
  //   n+2     MPI_Fetch_and_op counter     n+3  MPI_Compare_and_swap target
  //   n+4     PSCW target
  const int ACC = n, GACC = n + 1, FOP = n + 2, CAS = n + 3, PSCW = n + 4;
  std::vector<int> mem(n + 5, 0);
  mem[CAS] = -1;
  mem[PSCW] = -1;
  MPI_Win win;
  MPI_Win_create(mem.data(), MPI_Aint(mem.size() * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);

  // --- Fence epochs: Put, Get, Accumulate, Get_accumulate -------------------
  std::vector<int> put_vals(n);
  for (int t = 0; t < n; ++t) put_vals[t] = rank * 100 + t;
  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  for (int t = 0; t < n; ++t) MPI_Put(&put_vals[t], 1, MPI_INT, t, rank, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int r = 0; r < n; ++r)
    CHECK(mem[r] == r * 100 + rank, "Put: slot %d is %d, expected %d", r, mem[r], r * 100 + rank);

  std::vector<int> got(n, -1);
  MPI_Get(got.data(), n, MPI_INT, next, 0, n, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int r = 0; r < n; ++r)
    CHECK(got[r] == r * 100 + next, "Get: slot %d of rank %d is %d", r, next, got[r]);

  const int contribution = rank + 1;
  for (int t = 0; t < n; ++t)
    MPI_Accumulate(&contribution, 1, MPI_INT, t, ACC, 1, MPI_INT, MPI_SUM, win);
  const int one = 1;
  int fetched = -1;
  MPI_Get_accumulate(&one, 1, MPI_INT, &fetched, 1, MPI_INT, 0, GACC, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  CHECK(mem[ACC] == n * (n + 1) / 2, "Accumulate: slot is %d, expected %d", mem[ACC],
        n * (n + 1) / 2);
  if (rank == 0) CHECK(mem[GACC] == n, "Get_accumulate: counter is %d, expected %d", mem[GACC], n);
  check_permutation(fetched, n, "Get_accumulate");

  // --- Passive target: Fetch_and_op under an exclusive lock -----------------
  int old = -1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Fetch_and_op(&one, &old, MPI_INT, 0, FOP, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  check_permutation(old, n, "Fetch_and_op");  // also orders all updates before the reads
  int counter = -1;
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Fetch_and_op(nullptr, &counter, MPI_INT, 0, FOP, MPI_NO_OP, win);
  MPI_Win_unlock(0, win);
  CHECK(counter == n, "Fetch_and_op(NO_OP): counter is %d, expected %d", counter, n);

  // --- Passive target: Compare_and_swap under lock_all -----------------------
  {
    const int compare = -1;
    int result = -2;
    MPI_Win_lock_all(0, win);
    MPI_Compare_and_swap(&rank, &compare, &result, MPI_INT, 0, CAS, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    const int won = result == -1 ? 1 : 0;
    CHECK(won || (result >= 0 && result < n), "Compare_and_swap returned %d", result);
    int winners = 0, winner = -1;
    const int candidate = won ? rank : -1;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&candidate, &winner, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(winners == 1, "Compare_and_swap: %d ranks won", winners);
    CHECK(won || result == winner, "Compare_and_swap: lost to %d, but the winner is %d", result,
          winner);
    int value = -3;
    MPI_Win_lock_all(0, win);
    MPI_Get(&value, 1, MPI_INT, 0, CAS, 1, MPI_INT, win);
    MPI_Win_flush_local(0, win);
    CHECK(value == winner, "Compare_and_swap: target holds %d, winner is %d", value, winner);
    MPI_Win_flush_local_all(win);
    MPI_Win_unlock_all(win);
  }

  // --- PSCW: expose to the previous rank, access the next one ---------------
  {
    MPI_Group win_group, to_group, from_group;
    MPI_Win_get_group(win, &win_group);
    MPI_Group_incl(win_group, 1, &next, &to_group);
    MPI_Group_incl(win_group, 1, &prev, &from_group);
    MPI_Win_post(from_group, 0, win);
    MPI_Win_start(to_group, 0, win);
    MPI_Put(&rank, 1, MPI_INT, next, PSCW, 1, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
    CHECK(mem[PSCW] == prev, "PSCW: slot is %d, expected %d", mem[PSCW], prev);
    MPI_Group_free(&to_group);
    MPI_Group_free(&from_group);
    MPI_Group_free(&win_group);
  }
  MPI_Win_free(&win);
  CHECK(win == MPI_WIN_NULL, "Win_free did not reset the handle");

  // --- Window B: MPI_Win_allocate, Put under lock_all with flushes ----------
  {
    // The window is padded to a multiple of 64 bytes: MPICH 4.0.2 (ch4)
    // places RMA data at wrong offsets in shared-memory MPI_Win_allocate
    // windows whose size is not a multiple of 16 bytes.
    const int slots = (n + 15) / 16 * 16;
    int *base = nullptr;
    MPI_Win awin;
    MPI_Win_allocate(MPI_Aint(slots * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &base, &awin);
    CHECK(base != nullptr, "Win_allocate returned no memory");
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, awin);
    for (int i = 0; i < slots; ++i) base[i] = -1;
    MPI_Win_unlock(rank, awin);
    MPI_Barrier(MPI_COMM_WORLD);

    std::vector<int> vals(n);
    MPI_Win_lock_all(0, awin);
    for (int k = 1; k <= n; ++k) {
      const int t = (rank + k) % n;  // start with the next rank, end with self
      vals[t] = rank * 10 + t;
      MPI_Put(&vals[t], 1, MPI_INT, t, rank, 1, MPI_INT, awin);
      MPI_Win_flush(t, awin);
    }
    MPI_Win_flush_all(awin);
    MPI_Win_unlock_all(awin);
    MPI_Barrier(MPI_COMM_WORLD);

    MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, awin);
    for (int r = 0; r < n; ++r)
      CHECK(base[r] == r * 10 + rank, "Win_allocate/Put: slot %d is %d, expected %d", r, base[r],
            r * 10 + rank);
    for (int i = n; i < slots; ++i)
      CHECK(base[i] == -1, "Win_allocate/Put: padding slot %d is %d", i, base[i]);
    MPI_Win_unlock(rank, awin);
    MPI_Win_free(&awin);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
