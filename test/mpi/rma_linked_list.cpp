// rma_linked_list: a distributed linked list appended to concurrently with
// MPI_Compare_and_swap under passive target locks.
//
// Every rank holds its elements in an MPI_Win_allocate window of ELEMS
// elements of two ints (value, next), with a displacement unit of one int; a
// pointer is one int, rank * ELEMS + element, or NIL. Rank 0's element 0 is
// the head. A rank appends an element by swapping its pointer into the next
// field of the element it believes is the tail (MPI_Compare_and_swap against
// NIL, under MPI_Win_lock); when that fails, the element that won is the new
// tail to try. Rank 0 then walks the list with MPI_Get under a shared lock
// and checks that it holds every element once, each rank's in order. Another
// window of a different size and unit (MPI_Win_create, unit 8) is created
// first and stays alive, so that windows differ in size and unit. Runs with
// 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

// Per rank; element 0 of rank 0 is the head. The window is 64 bytes: MPICH
// 4.0 (ch4) places RMA data at wrong offsets in MPI_Win_allocate windows
// whose size is not a multiple of 16 bytes (see onesided.cpp).
const int ELEMS = 8;
const int NIL = -1;

int encode(int rank, int elem) { return rank * ELEMS + elem; }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("rma_linked_list");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);

  std::vector<double> other(3 * (rank + 1), 0.0);
  MPI_Win other_win;
  MPI_Win_create(other.data(), MPI_Aint(other.size() * sizeof(double)), sizeof(double),
                 MPI_INFO_NULL, MPI_COMM_WORLD, &other_win);

  int *elems = nullptr;
  MPI_Win win;
  MPI_Win_allocate(MPI_Aint(2 * ELEMS * sizeof(int)), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                   &elems, &win);
  MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, win);
  for (int e = 0; e < ELEMS; ++e) {
    elems[2 * e] = rank * 1000 + e; // value
    elems[2 * e + 1] = NIL;         // next
  }
  MPI_Win_unlock(rank, win);
  MPI_Barrier(MPI_COMM_WORLD);

  // Append this rank's elements 1..ELEMS-1 (rank 0's element 0 is the head).
  int tail = encode(0, 0), attempts = 0;
  for (int e = 1; e < ELEMS; ++e) {
    const int mine = encode(rank, e);
    for (;;) {
      int result = -2;
      const int nil = NIL;
      const int tail_rank = tail / ELEMS, tail_elem = tail % ELEMS;
      MPI_Win_lock(MPI_LOCK_EXCLUSIVE, tail_rank, 0, win);
      MPI_Compare_and_swap(&mine, &nil, &result, MPI_INT, tail_rank, 2 * tail_elem + 1, win);
      MPI_Win_unlock(tail_rank, win);
      ++attempts;
      if (result == NIL) {
        tail = mine;
        break;
      }
      CHECK(result >= 0 && result < n * ELEMS, "Compare_and_swap fetched %d", result);
      tail = result;
    }
  }
  CHECK(attempts >= ELEMS - 1, "%d attempts", attempts);
  MPI_Barrier(MPI_COMM_WORLD);

  if (rank == 0) {
    std::vector<int> last(n, 0), seen(n, 0);
    int at = encode(0, 0), count = 0;
    while (at != NIL) {
      CHECK(at >= 0 && at < n * ELEMS, "list points to %d", at);
      int elem[2] = {-1, -1};
      MPI_Win_lock(MPI_LOCK_SHARED, at / ELEMS, 0, win);
      MPI_Get(elem, 2, MPI_INT, at / ELEMS, 2 * (at % ELEMS), 2, MPI_INT, win);
      MPI_Win_unlock(at / ELEMS, win);
      const int owner = elem[0] / 1000, index = elem[0] % 1000;
      CHECK(owner == at / ELEMS && index == at % ELEMS, "element %d holds %d", at, elem[0]);
      if (at != encode(0, 0)) {
        CHECK(index > last[owner], "rank %d's element %d after its %d", owner, index, last[owner]);
        last[owner] = index;
        ++seen[owner];
      }
      ++count;
      at = elem[1];
      CHECK(count <= n * ELEMS, "the list has a cycle");
    }
    for (int r = 0; r < n; ++r)
      CHECK(seen[r] == ELEMS - 1, "the list holds %d elements of rank %d", seen[r], r);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Win_free(&other_win);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
