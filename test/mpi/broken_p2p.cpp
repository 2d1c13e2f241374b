// broken_p2p CASE: point-to-point messages that pilgrim-check must report
// (docs/CHECK.md), each in a program that still terminates cleanly under
// Open MPI and MPICH. Two ranks; rank 0 sends, rank 1 receives.
//   unmatched-send  rank 0 MPI_Isend's one int to rank 1 (tag 7) and frees
//                   the request; rank 1 never receives it. It terminates: a
//                   message this small goes eagerly, MPI_Request_free lets it
//                   complete unseen, and MPI_Finalize drops it from rank 1's
//                   queue of unexpected messages.
//   unmatched-recv  rank 1 MPI_Irecv's from rank 0 (tag 7) and frees the
//                   request; rank 0 never sends. It terminates: a freed
//                   receive that nothing matches is dropped at MPI_Finalize.
//   tag             rank 0 sends with tag 1 and rank 1 receives with tag 2,
//                   both requests freed as above.
//   comm            rank 0 sends on MPI_COMM_WORLD and rank 1 receives on a
//                   duplicate of it, both requests freed as above.
//   size            rank 0 MPI_Send's 4 ints; rank 1 MPI_Recv's them into a
//                   buffer of 2 with MPI_ERRORS_RETURN: MPI returns
//                   MPI_ERR_TRUNCATE (which the program checks) and both go on.
// Every case ends with a barrier; nothing waits on what does not come.
//
// Usage: broken_p2p CASE   (2 ranks)
#include <cstring>

#include "mpi_test_util.h"

namespace {

void send_freed(int tag, MPI_Comm comm) {
  static int value = 42; // must outlive the freed send
  MPI_Request req;
  MPI_Isend(&value, 1, MPI_INT, 1, tag, comm, &req);
  MPI_Request_free(&req);
}

void recv_freed(int tag, MPI_Comm comm) {
  static int value = -1;
  MPI_Request req;
  MPI_Irecv(&value, 1, MPI_INT, 0, tag, comm, &req);
  MPI_Request_free(&req);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("broken_p2p");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  CHECK(mpitest::comm_size(MPI_COMM_WORLD) == 2, "needs 2 ranks");
  CHECK(argc == 2, "usage: broken_p2p unmatched-send|unmatched-recv|tag|comm|size");
  const char *what = argv[1];
  if (std::strcmp(what, "unmatched-send") == 0) {
    if (rank == 0)
      send_freed(7, MPI_COMM_WORLD);
  } else if (std::strcmp(what, "unmatched-recv") == 0) {
    if (rank == 1)
      recv_freed(7, MPI_COMM_WORLD);
  } else if (std::strcmp(what, "tag") == 0) {
    if (rank == 0)
      send_freed(1, MPI_COMM_WORLD);
    else
      recv_freed(2, MPI_COMM_WORLD);
  } else if (std::strcmp(what, "comm") == 0) {
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0)
      send_freed(1, MPI_COMM_WORLD);
    else
      recv_freed(1, dup);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&dup);
  } else if (std::strcmp(what, "size") == 0) {
    int data[4] = {1, 2, 3, 4};
    if (rank == 0) {
      MPI_Send(data, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
      MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
      const int err = MPI_Recv(data, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      int cls = MPI_SUCCESS;
      MPI_Error_class(err, &cls);
      CHECK(cls == MPI_ERR_TRUNCATE, "MPI_Recv into 2 ints of 4: error class %d", cls);
    }
  } else {
    mpitest::fail("unknown case '%s'", what);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
