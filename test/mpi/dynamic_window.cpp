// dynamic_window: RMA on a window made by MPI_Win_create_dynamic, where a
// target displacement is an absolute address of the target process.
//
// Every rank attaches two regions of its own memory (MPI_Win_attach), takes
// their addresses with MPI_Get_address and sends them to every rank
// (MPI_Allgather of MPI_AINT); the origins then address the targets' memory
// with those numbers: MPI_Put, MPI_Get, MPI_Accumulate, MPI_Get_accumulate,
// MPI_Fetch_and_op, MPI_Compare_and_swap, MPI_Rput and MPI_Rget, under
// MPI_Win_lock_all and MPI_Win_lock. The second region is detached and
// attached again, and used after that at the address taken before. Another
// run has its memory at other addresses: a proxy that replayed the recorded
// numbers would address memory the target never attached. Runs with 2 or
// more ranks.
#include "mpi_test_util.h"

#include <algorithm>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("dynamic_window");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;

  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  // Region A: one slot per rank for MPI_Put, then an MPI_Accumulate target
  // and an MPI_Get_accumulate counter (at rank 0). Region B: MPI_Fetch_and_op
  // and MPI_Compare_and_swap targets (at the next rank).
  const int ACC = n, GACC = n + 1;
  std::vector<int> a(size_t(n) + 2, -1);
  a[size_t(ACC)] = 0;
  a[size_t(GACC)] = 0;
  std::vector<long long> b = {0, -1};
  MPI_Win_attach(win, a.data(), MPI_Aint(a.size() * sizeof(int)));
  MPI_Win_attach(win, b.data(), MPI_Aint(b.size() * sizeof(long long)));
  MPI_Aint mine[2];
  MPI_Get_address(a.data(), &mine[0]);
  MPI_Get_address(b.data(), &mine[1]);
  std::vector<MPI_Aint> where(2 * size_t(n));
  MPI_Allgather(mine, 2, MPI_AINT, where.data(), 2, MPI_AINT, MPI_COMM_WORLD);
  auto a_of = [&](int r, int slot) {
    return where[2 * size_t(r)] + MPI_Aint(slot) * MPI_Aint(sizeof(int));
  };
  auto b_of = [&](int r, int slot) {
    return where[2 * size_t(r) + 1] + MPI_Aint(slot) * MPI_Aint(sizeof(long long));
  };

  // --- MPI_Put into the next rank's slot for this rank, MPI_Get it back -----
  MPI_Win_lock_all(0, win);
  const int value = rank * 10 + 1;
  MPI_Put(&value, 1, MPI_INT, next, a_of(next, rank), 1, MPI_INT, win);
  MPI_Win_flush(next, win);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(a[size_t(prev)] == prev * 10 + 1, "Put: slot %d is %d", prev, a[size_t(prev)]);

  MPI_Win_lock_all(0, win);
  int got = -1;
  MPI_Get(&got, 1, MPI_INT, next, a_of(next, rank), 1, MPI_INT, win);
  MPI_Win_flush(next, win);
  CHECK(got == value, "Get: read %d back, expected %d", got, value);

  // --- atomics ------------------------------------------------------------------
  const int one = 1, contribution = rank + 1;
  int fetched = -1;
  MPI_Accumulate(&contribution, 1, MPI_INT, 0, a_of(0, ACC), 1, MPI_INT, MPI_SUM, win);
  MPI_Get_accumulate(&one, 1, MPI_INT, &fetched, 1, MPI_INT, 0, a_of(0, GACC), 1, MPI_INT, MPI_SUM,
                     win);
  MPI_Win_flush(0, win);
  // At the next rank (Open MPI 4.1's osc/rdma crashes in an atomic
  // MPI_Compare_and_swap a process makes on its own dynamic window).
  long long ticket = -1;
  const long long step = 5;
  MPI_Fetch_and_op(&step, &ticket, MPI_LONG_LONG, next, b_of(next, 0), MPI_SUM, win);
  const long long me = rank, empty = -1;
  long long previous = -2;
  MPI_Compare_and_swap(&me, &empty, &previous, MPI_LONG_LONG, next, b_of(next, 1), win);
  MPI_Win_flush(next, win);
  MPI_Win_unlock_all(win);
  CHECK(fetched >= 0 && fetched < n, "Get_accumulate fetched %d", fetched);
  CHECK(ticket == 0, "Fetch_and_op fetched %lld", ticket);
  CHECK(previous == -1, "Compare_and_swap found %lld", previous);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(b[0] == 5, "Fetch_and_op: counter %lld", b[0]);
  CHECK(b[1] == prev, "Compare_and_swap: slot holds %lld", b[1]);
  if (rank == 0) {
    CHECK(a[size_t(ACC)] == n * (n + 1) / 2, "Accumulate: %d", a[size_t(ACC)]);
    CHECK(a[size_t(GACC)] == n, "Get_accumulate: counter %d", a[size_t(GACC)]);
  }

  // --- region B detached and attached again: the old addresses still hold --
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, b.data());
  MPI_Win_attach(win, b.data(), MPI_Aint(b.size() * sizeof(long long)));
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_lock(MPI_LOCK_SHARED, prev, 0, win);
  const long long mark = 1000 + rank;
  MPI_Request req;
  MPI_Rput(&mark, 1, MPI_LONG_LONG, prev, b_of(prev, 1), 1, MPI_LONG_LONG, win, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Win_unlock(prev, win);
  MPI_Barrier(MPI_COMM_WORLD);
  CHECK(b[1] == 1000 + next, "Rput: slot holds %lld", b[1]);
  MPI_Win_lock(MPI_LOCK_SHARED, next, 0, win);
  long long back = -1;
  MPI_Rget(&back, 1, MPI_LONG_LONG, next, b_of(next, 1), 1, MPI_LONG_LONG, win, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Win_unlock(next, win);
  CHECK(back == 1000 + (next + 1) % n, "Rget: read %lld", back);

  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_detach(win, b.data());
  MPI_Win_detach(win, a.data());
  MPI_Win_free(&win);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
