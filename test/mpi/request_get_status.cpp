// request_get_status: MPI_Request_get_status, which takes its request by value
// and neither frees nor completes it.
//
// Rank 1 sends one message of 4 ints with tag 7 to rank 0, synchronously
// (MPI_Issend), asks once for the status of its send request and waits for
// it. Rank 0 polls its receive request with MPI_Request_get_status
// until the message is there, checks the status, then completes the request
// with MPI_Wait: the request is still active after a successful get_status.
// Every rank also asks for the status of MPI_REQUEST_NULL (flag 1, empty
// status). Runs with 2 or more ranks; ranks beyond 1 only do the null query.
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("request_get_status");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int N = 4, TAG = 7;
  int data[N] = {0, 0, 0, 0};

  int flag = 0;
  MPI_Status st;
  MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &st);
  CHECK(flag == 1, "get_status of MPI_REQUEST_NULL: flag=%d, expected 1", flag);

  if (rank == 0) {
    MPI_Request req;
    MPI_Irecv(data, N, MPI_INT, 1, TAG, MPI_COMM_WORLD, &req);
    flag = 0;
    while (!flag)
      MPI_Request_get_status(req, &flag, &st);
    CHECK(req != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
    CHECK_STATUS(st, MPI_INT, 1, TAG, N, "get_status of the receive");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the request active");
    for (int i = 0; i < N; ++i)
      CHECK(data[i] == 10 + i, "element %d is %d, expected %d", i, data[i], 10 + i);
  } else if (rank == 1) {
    for (int i = 0; i < N; ++i)
      data[i] = 10 + i;
    MPI_Request req;
    MPI_Issend(data, N, MPI_INT, 0, TAG, MPI_COMM_WORLD, &req);
    MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE); // either flag: not checked
    CHECK(req != MPI_REQUEST_NULL, "MPI_Request_get_status freed the request");
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
