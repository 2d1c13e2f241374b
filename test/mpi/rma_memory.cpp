// rma_memory: memory that MPI allocates, as window memory and as the
// buffers of RMA calls.
//
// MPI_Alloc_mem blocks are the base of an MPI_Win_create window and the
// origin, compare and result buffers of MPI_Put, MPI_Get, MPI_Accumulate,
// MPI_Fetch_and_op, MPI_Get_accumulate and MPI_Compare_and_swap; the window's
// own base is an origin buffer too. The base MPI_Win_allocate returns is the
// origin of an MPI_Put and the result buffer of an MPI_Fetch_and_op, and an
// MPI_Win_allocate_shared segment, found with MPI_Win_shared_query, is the
// origin of an MPI_Put. Blocks are freed and allocated again while the program
// holds other memory, so MPI may hand out other addresses than the first time.
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <cstdlib>
#include <vector>

namespace {

// Window A (MPI_Win_create over MPI_Alloc_mem memory), in ints:
//   0 ORIGIN  read-only: this rank's value, the origin of an Accumulate
//   1 PUT     written by the previous rank's Put
//   2 ACC     Accumulate target (rank 0)
//   3 FOP     Fetch_and_op counter (rank 0)
//   4 GACC    Get_accumulate counter (rank 0)
//   5 CAS     Compare_and_swap target (rank 0)
enum { ORIGIN, PUT, ACC, FOP, GACC, CAS, SLOTS };

// MPI_Alloc_mem, checked.
int *alloc_ints(int n) {
  int *p = nullptr;
  MPI_Alloc_mem(MPI_Aint(n * sizeof(int)), MPI_INFO_NULL, &p);
  CHECK(p != nullptr, "Alloc_mem returned no memory");
  return p;
}

void alloc_window_rounds(int rank, int n) {
  int *mem = alloc_ints(SLOTS);
  int *origin = alloc_ints(2); // origin and compare buffers
  int *result = alloc_ints(2); // result buffers
  for (int i = 0; i < SLOTS; ++i)
    mem[i] = 0;
  mem[ORIGIN] = rank + 1;
  mem[CAS] = -1;
  MPI_Win win;
  MPI_Win_create(mem, MPI_Aint(SLOTS * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                 &win);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;

  MPI_Win_fence(MPI_MODE_NOPRECEDE, win);
  origin[0] = rank * 10;
  MPI_Put(origin, 1, MPI_INT, next, PUT, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK(mem[PUT] == prev * 10, "Put: slot is %d, expected %d", mem[PUT], prev * 10);

  MPI_Get(result, 1, MPI_INT, next, PUT, 1, MPI_INT, win);
  MPI_Accumulate(mem, 1, MPI_INT, 0, ACC, 1, MPI_INT, MPI_SUM, win); // the base as origin
  MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
  CHECK(result[0] == rank * 10, "Get: fetched %d, expected %d", result[0], rank * 10);
  if (rank == 0)
    CHECK(mem[ACC] == n * (n + 1) / 2, "Accumulate: slot is %d, expected %d", mem[ACC],
          n * (n + 1) / 2);

  origin[0] = 1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Fetch_and_op(origin, result, MPI_INT, 0, FOP, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  const int fop = result[0];
  MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
  MPI_Get_accumulate(origin, 1, MPI_INT, result + 1, 1, MPI_INT, 0, GACC, 1, MPI_INT, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  CHECK(fop >= 0 && fop < n && result[1] >= 0 && result[1] < n,
        "Fetch_and_op / Get_accumulate fetched %d / %d", fop, result[1]);

  origin[0] = rank;
  origin[1] = -1; // compare
  MPI_Win_lock_all(0, win);
  MPI_Compare_and_swap(origin, origin + 1, result, MPI_INT, 0, CAS, win);
  MPI_Win_unlock_all(win);
  int won = result[0] == -1 ? 1 : 0, winners = 0;
  MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(winners == 1, "Compare_and_swap: %d ranks won", winners);

  MPI_Win_free(&win);
  MPI_Free_mem(result);
  MPI_Free_mem(origin);
  MPI_Free_mem(mem);
}

void allocate_window(int rank, int n, int slots) {
  int *base = nullptr;
  MPI_Win win;
  MPI_Win_allocate(MPI_Aint(slots * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                   &win);
  CHECK(base != nullptr, "Win_allocate returned no memory");
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  for (int i = 0; i < slots; ++i)
    base[i] = i == 0 ? rank : -1;
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock_all(0, win);
  MPI_Put(base, 1, MPI_INT, next, 1, 1, MPI_INT, win); // the window's own base as origin
  MPI_Win_flush_all(win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  CHECK(base[1] == prev, "Win_allocate/Put: slot 1 is %d, expected %d", base[1], prev);
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);

  // The base as the result buffer of a Fetch_and_op on slot 2 of rank 0.
  int *one = alloc_ints(1);
  *one = 1;
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
  MPI_Fetch_and_op(one, base, MPI_INT, 0, 2, MPI_SUM, win);
  MPI_Win_unlock(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
  CHECK(base[0] >= -1 && base[0] < n - 1, "Win_allocate/Fetch_and_op fetched %d", base[0]);
  MPI_Win_unlock(rank, win);
  MPI_Free_mem(one);
  MPI_Win_free(&win);
}

void shared_window(int rank) {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  const int me = mpitest::comm_rank(node), size = mpitest::comm_size(node);
  int *mine = nullptr;
  MPI_Win win;
  MPI_Win_allocate_shared(MPI_Aint(16 * sizeof(int)), sizeof(int), MPI_INFO_NULL, node, &mine,
                          &win);
  MPI_Win_lock_all(0, win);
  for (int i = 0; i < 16; ++i)
    mine[i] = me * 100 + i;
  MPI_Win_sync(win);
  MPI_Barrier(node);
  MPI_Win_sync(win);
  const int left = (me + size - 1) % size;
  MPI_Aint bytes = 0;
  int unit = 0;
  int *theirs = nullptr;
  MPI_Win_shared_query(win, left, &bytes, &unit, &theirs);
  CHECK(bytes == MPI_Aint(16 * sizeof(int)) && unit == int(sizeof(int)) && theirs != nullptr,
        "Win_shared_query: %ld bytes, unit %d", long(bytes), unit);
  CHECK(theirs[3] == left * 100 + 3, "shared segment of %d holds %d", left, theirs[3]);
  MPI_Win_unlock_all(win);
  MPI_Barrier(node);
  // The left neighbor's segment, read in place, is the origin of a Put into
  // slot 8 of the right neighbor.
  MPI_Win_fence(0, win);
  MPI_Put(theirs, 1, MPI_INT, (me + 1) % size, 8, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  CHECK(mine[8] == ((me + size - 2) % size) * 100, "shared Put: slot 8 is %d", mine[8]);
  MPI_Win_free(&win);
  MPI_Comm_free(&node);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("rma_memory");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);

  // Each round frees its blocks; between rounds the program takes memory of
  // the same sizes for itself, so MPI may return other addresses.
  std::vector<void *> held;
  for (int round = 0; round < 3; ++round) {
    alloc_window_rounds(rank, n);
    held.push_back(std::malloc(SLOTS * sizeof(int)));
    held.push_back(std::malloc(2 * sizeof(int)));
  }
  for (int slots : {16, 32, 16}) {
    allocate_window(rank, n, slots);
    held.push_back(std::malloc(size_t(slots) * sizeof(int)));
  }
  shared_window(rank);
  for (void *p : held)
    std::free(p);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
