// comm_id_reuse: communicator and window ids reused after they are freed,
// where the caller's rank in the new object differs from its rank in the
// old one (docs/FORMAT.md §7, "Which communicator entry applies").
//
// Each phase runs a ring exchange (MPI_Irecv from MPI_ANY_SOURCE, MPI_Isend
// to the next rank, MPI_Waitall; then MPI_Sendrecv naming both neighbors)
// and a window exchange (MPI_Win_create, MPI_Put to the next rank between
// fences, MPI_Win_free) in one communicator, then frees it:
//
//  0. MPI_Comm_split with MPI_UNDEFINED on rank 0: MPI_COMM_NULL there
//     (no id), rank r - 1 elsewhere; only a barrier in it.
//  1. MPI_Comm_split with reversed keys: rank r is rank n - 1 - r.
//  2. MPI_Comm_dup of MPI_COMM_WORLD, which reuses the id: rank r is r.
//  3. MPI_Cart_create of a periodic 2-D grid (MPI_Dims_create), reusing the
//     id again, and MPI_Cart_sub of its rows: exchanges with the
//     MPI_Cart_shift neighbors in both (peers stored as grid displacements).
//  4. MPI_Comm_idup of MPI_COMM_WORLD, reusing the id once more, without
//     a grid: the ring exchange.
//
// Runs with 2 or more ranks; every received value and status is checked.
#include "mpi_test_util.h"

#include <vector>

namespace {

int phase_tag = 0;

// Receives from MPI_ANY_SOURCE what `src` sends, sends to `dest`; checks the
// status and the value (each rank sends 1000 * phase + its rank).
void exchange(MPI_Comm comm, int src, int dest, const char *what) {
  int me = -1;
  MPI_Comm_rank(comm, &me);
  const int out = 1000 * phase_tag + me;
  int in = -1;
  MPI_Request req[2];
  MPI_Status st[2];
  MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, phase_tag, comm, &req[0]);
  MPI_Isend(&out, 1, MPI_INT, dest, phase_tag, comm, &req[1]);
  MPI_Waitall(2, req, st);
  CHECK_STATUS(st[0], MPI_INT, src, phase_tag, 1, what);
  CHECK(in == 1000 * phase_tag + src, "%s: Irecv got %d from %d", what, in, src);
  in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, dest, phase_tag, &in, 1, MPI_INT, src, phase_tag, comm,
               MPI_STATUS_IGNORE);
  CHECK(in == 1000 * phase_tag + src, "%s: Sendrecv got %d from %d", what, in, src);
}

// Each rank puts its rank into the window of `dest`; checks what `src` put.
void put_exchange(MPI_Comm comm, int src, int dest, const char *what) {
  int me = -1;
  MPI_Comm_rank(comm, &me);
  // On the heap: MPICH's shared-memory RMA misplaces a Put into a window on
  // the stack (seen with MPICH 4.0: it lands on a neighboring variable).
  std::vector<int> slot(1, -1);
  MPI_Win win;
  MPI_Win_create(slot.data(), sizeof(int), sizeof(int), MPI_INFO_NULL, comm, &win);
  MPI_Win_fence(0, win);
  MPI_Put(&me, 1, MPI_INT, dest, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  CHECK(slot[0] == src, "%s: window holds %d, expected %d", what, slot[0], src);
}

void ring(MPI_Comm comm, const char *what) {
  int me = -1, n = 0;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &n);
  exchange(comm, (me + n - 1) % n, (me + 1) % n, what);
  put_exchange(comm, (me + n - 1) % n, (me + 1) % n, what);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("comm_id_reuse");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);

  // 0. A split that gives rank 0 no communicator.
  MPI_Comm part;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? MPI_UNDEFINED : 0, rank, &part);
  CHECK((part == MPI_COMM_NULL) == (rank == 0), "split: MPI_COMM_NULL on rank %d", rank);
  if (part != MPI_COMM_NULL) {
    MPI_Barrier(part);
    MPI_Comm_free(&part);
  }

  // 1. Reversed keys.
  phase_tag = 1;
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, n - 1 - rank, &reversed);
  int r = -1;
  MPI_Comm_rank(reversed, &r);
  CHECK(r == n - 1 - rank, "reversed split: rank %d, expected %d", r, n - 1 - rank);
  ring(reversed, "reversed split");
  MPI_Comm_free(&reversed);

  // 2. A dup reusing the id.
  phase_tag = 2;
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  ring(dup, "dup");
  MPI_Comm_free(&dup);

  // 3. A periodic grid and its rows.
  phase_tag = 3;
  int dims[2] = {0, 0};
  const int periods[2] = {1, 1};
  MPI_Dims_create(n, 2, dims);
  MPI_Comm grid, row;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
  int src = -1, dest = -1;
  MPI_Cart_shift(grid, 0, 1, &src, &dest);
  exchange(grid, src, dest, "grid");
  const int remain[2] = {0, 1};
  MPI_Cart_sub(grid, remain, &row);
  MPI_Cart_shift(row, 0, 1, &src, &dest);
  exchange(row, src, dest, "row");
  MPI_Comm_free(&row);
  MPI_Comm_free(&grid);

  // 4. An idup reusing the id.
  phase_tag = 4;
  MPI_Comm idup;
  MPI_Request req;
  MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  ring(idup, "idup");
  MPI_Comm_free(&idup);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
