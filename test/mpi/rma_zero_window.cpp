// rma_zero_window: MPI_Win_allocate windows of zero bytes on some ranks.
//
// Odd ranks allocate no memory for their window: MPI may return NULL or any
// address for it (Open MPI returns either, from run to run). The even ranks'
// windows take MPI_Put and MPI_Get from all ranks through buffers of
// MPI_Alloc_mem memory allocated after the window. Runs with 2 to 16 ranks.
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("rma_zero_window");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int slots = 16; // per even rank: one per origin rank, n <= 16
  CHECK(n <= slots, "needs at most %d ranks, got %d", slots, n);
  const bool empty = rank % 2 == 1;

  int *base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(empty ? 0 : MPI_Aint(slots * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &base, &win);
  CHECK(empty || base != nullptr, "Win_allocate returned no memory");
  int *value = nullptr, *got = nullptr;
  MPI_Alloc_mem(sizeof(int), MPI_INFO_NULL, &value);
  MPI_Alloc_mem(MPI_Aint(n * sizeof(int)), MPI_INFO_NULL, &got);

  MPI_Win_fence(0, win);
  if (!empty) {
    for (int i = 0; i < slots; ++i)
      base[i] = -1;
  }
  MPI_Win_fence(0, win);
  *value = rank + 100;
  for (int t = 0; t < n; t += 2)
    MPI_Put(value, 1, MPI_INT, t, rank, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  if (!empty)
    for (int r = 0; r < n; ++r)
      CHECK(base[r] == r + 100, "slot %d is %d, expected %d", r, base[r], r + 100);
  MPI_Get(got, n, MPI_INT, 0, 0, n, MPI_INT, win);
  MPI_Win_fence(0, win);
  for (int r = 0; r < n; ++r)
    CHECK(got[r] == r + 100, "Get: slot %d of rank 0 is %d", r, got[r]);

  MPI_Free_mem(got);
  MPI_Free_mem(value);
  MPI_Win_free(&win);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
