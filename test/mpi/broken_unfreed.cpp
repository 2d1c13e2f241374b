// broken_unfreed: handles never freed, which pilgrim-check reports as
// warnings (docs/CHECK.md): legal, MPI_Finalize frees them, but a replay
// that makes them in a loop grows. Each rank duplicates MPI_COMM_WORLD,
// commits a contiguous datatype and makes a persistent receive that it never
// starts, and frees none of them. Nothing waits on anything: it terminates.
//
// Usage: broken_unfreed   (2 ranks)
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("broken_unfreed");
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  static int buf[2];
  MPI_Request req;
  MPI_Recv_init(buf, 1, pair, MPI_ANY_SOURCE, 0, dup, &req);
  CHECK(req != MPI_REQUEST_NULL, "MPI_Recv_init gave MPI_REQUEST_NULL");
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
