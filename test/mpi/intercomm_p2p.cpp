// intercomm_p2p: point-to-point messages on an intercommunicator, whose
// peers are ranks of the remote group (pilgrim-check's matching,
// docs/CHECK.md, "Intercommunicators"). The even and the odd ranks of
// MPI_COMM_WORLD form two groups joined by MPI_Intercomm_create. Local rank
// i of the even group sends its world rank to remote rank i (the odd group's
// i-th, world rank 2i + 1) with MPI_Send; the odd side receives from
// MPI_ANY_SOURCE with MPI_Irecv + MPI_Wait, checks the sender and the value,
// and answers with MPI_Sendrecv from the remote rank it got. Every value
// and status is checked.
//
// Usage: intercomm_p2p   (an even number of ranks, 2 or more)
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("intercomm_p2p");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  const int size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(size >= 2 && size % 2 == 0, "needs an even number of ranks");
  MPI_Comm half, inter;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  // Each group's leader is its local rank 0; the other leader is world
  // rank 1 for the even group and world rank 0 for the odd one.
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 11, &inter);
  const int me = mpitest::comm_rank(inter);
  int value = rank, got = -1;
  if (rank % 2 == 0) {
    MPI_Send(&value, 1, MPI_INT, me, 1, inter);
    MPI_Sendrecv(&value, 1, MPI_INT, me, 2, &got, 1, MPI_INT, me, 2, inter, MPI_STATUS_IGNORE);
    CHECK(got == rank + 1, "even side got %d from remote %d", got, me);
  } else {
    MPI_Request req;
    MPI_Status st;
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 1, inter, &req);
    MPI_Wait(&req, &st);
    CHECK(st.MPI_SOURCE == me && got == rank - 1, "odd side got %d from remote %d", got,
          st.MPI_SOURCE);
    MPI_Sendrecv(&value, 1, MPI_INT, st.MPI_SOURCE, 2, &got, 1, MPI_INT, st.MPI_SOURCE, 2, inter,
                 MPI_STATUS_IGNORE);
    CHECK(got == rank - 1, "odd side's sendrecv got %d", got);
  }
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
