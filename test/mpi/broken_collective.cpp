// broken_collective CASE: collectives whose ranks disagree, which
// pilgrim-check must report (docs/CHECK.md). Two ranks. Every disagreeing
// call is an MPI_Bcast of zero elements, which both Open MPI and MPICH
// return from at once without communicating, so each program terminates
// although its collectives do not match:
//   root   rank 0 broadcasts from root 0, rank 1 from root 1;
//   order  rank 0 makes the empty MPI_Bcast then an MPI_Allreduce, rank 1
//          the MPI_Allreduce first (the Allreduces match each other);
//   comm   rank 0 broadcasts on MPI_COMM_WORLD, rank 1 on a duplicate.
//
// Usage: broken_collective CASE   (2 ranks)
#include <cstring>

#include "mpi_test_util.h"

namespace {

void empty_bcast(int root, MPI_Comm comm) {
  int unused = 0;
  MPI_Bcast(&unused, 0, MPI_INT, root, comm);
}

void sum_check() {
  int one = 1, sum = 0;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum == 2, "allreduce gave %d", sum);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("broken_collective");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  CHECK(mpitest::comm_size(MPI_COMM_WORLD) == 2, "needs 2 ranks");
  CHECK(argc == 2, "usage: broken_collective root|order|comm");
  const char *what = argv[1];
  if (std::strcmp(what, "root") == 0) {
    empty_bcast(rank, MPI_COMM_WORLD);
  } else if (std::strcmp(what, "order") == 0) {
    if (rank == 0) {
      empty_bcast(0, MPI_COMM_WORLD);
      sum_check();
    } else {
      sum_check();
      empty_bcast(0, MPI_COMM_WORLD);
    }
  } else if (std::strcmp(what, "comm") == 0) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    empty_bcast(0, rank == 0 ? MPI_COMM_WORLD : dup);
    MPI_Comm_free(&dup);
  } else {
    mpitest::fail("unknown case '%s'", what);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
