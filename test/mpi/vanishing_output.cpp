// vanishing_output: the folder the trace is to go to disappears during the
// run. Rank 0 removes DIR (given as the only argument, empty at that point:
// the tracer's check at MPI_Init leaves no file there), after which the
// tracer cannot write its trace at MPI_Finalize and must say so even under
// PILGRIM_QUIET=1 (test/settings/finish_line.test).
//
// Usage: vanishing_output DIR
#include "mpi_test_util.h"

#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("vanishing_output");
  if (argc != 2)
    mpitest::fail("usage: vanishing_output DIR");
  if (mpitest::comm_rank(MPI_COMM_WORLD) == 0 && rmdir(argv[1]) != 0)
    mpitest::fail("cannot remove %s", argv[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
