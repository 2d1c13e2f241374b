// broken_request: a request never completed, which pilgrim-check must
// report (docs/CHECK.md). Rank 0 MPI_Isend's one int to rank 1 and never
// waits on, tests or frees the request; rank 1 receives it with MPI_Recv.
// It terminates: a message this small goes eagerly, so the send completes
// inside MPI whether or not the program asks, and rank 1's receive matches
// it; MPI_Finalize does not wait for the application to complete requests.
//
// Usage: broken_request   (2 ranks)
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("broken_request");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  CHECK(mpitest::comm_size(MPI_COMM_WORLD) == 2, "needs 2 ranks");
  static int value = 0;
  if (rank == 0) {
    value = 42;
    MPI_Request req;
    MPI_Isend(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req);
  } else {
    MPI_Recv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(value == 42, "received %d", value);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
