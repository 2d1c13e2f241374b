// rma_pscw_test: general active target synchronization whose exposure epochs
// end with MPI_Win_test polling instead of MPI_Win_wait.
//
// Each round, every rank exposes its window to the previous rank
// (MPI_Win_post) and accesses the next one (MPI_Win_start, MPI_Put,
// MPI_Win_complete), then polls MPI_Win_test until its exposure epoch ends.
// The origins complete late (they wait for a message from their target
// first), so the polls find nothing a number of times that depends on the
// run. Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("rma_pscw_test");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), n = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;

  // The window is a 64-byte heap block: under MPICH 4.0 (ch4), Puts into a
  // window over a lone stack int were lost (flag set, target untouched).
  std::vector<int> mem(16, -1);
  int &slot = mem[0];
  MPI_Win win;
  MPI_Win_create(mem.data(), MPI_Aint(mem.size() * sizeof(int)), sizeof(int), MPI_INFO_NULL,
                 MPI_COMM_WORLD, &win);
  MPI_Group world, to_group, from_group;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &next, &to_group);
  MPI_Group_incl(world, 1, &prev, &from_group);

  const int rounds = 3;
  int polls = 0;
  for (int round = 0; round < rounds; ++round) {
    MPI_Win_post(from_group, 0, win);
    // The target's first polls happen before its origin may even start.
    int flag = 0;
    MPI_Win_test(win, &flag);
    polls += flag ? 0 : 1;
    CHECK(!flag, "Win_test: the epoch ended before the origin started");
    const int go = round;
    MPI_Send(&go, 1, MPI_INT, prev, 0, MPI_COMM_WORLD);
    int got = -1;
    MPI_Recv(&got, 1, MPI_INT, next, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(got == round, "round %d: go message says %d", round, got);
    const int value = rank * 100 + round;
    MPI_Win_start(to_group, 0, win);
    MPI_Put(&value, 1, MPI_INT, next, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    while (!flag) {
      MPI_Win_test(win, &flag);
      polls += flag ? 0 : 1;
    }
    CHECK(slot == prev * 100 + round, "round %d: slot is %d, expected %d", round, slot,
          prev * 100 + round);
  }
  CHECK(polls >= rounds, "only %d polls found nothing", polls);

  MPI_Group_free(&to_group);
  MPI_Group_free(&from_group);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
