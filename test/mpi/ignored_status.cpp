// ignored_status: wildcard receives whose status the application ignores
// (MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE): the trace keeps each matched
// sender (docs/FORMAT.md §8.3, Status kind 4), and the application sees
// MPI_STATUS_IGNORE's semantics.
//
// Rank 0 serves the other ranks one at a time, in order: it tells worker k
// "go" and only then can k's message arrive, so every match is
// deterministic though the receives take MPI_ANY_SOURCE. Per worker k:
//   1. MPI_Recv(MPI_ANY_SOURCE, tag 1, MPI_STATUS_IGNORE);
//   2. MPI_Probe(MPI_ANY_SOURCE, tag 2, MPI_STATUS_IGNORE), then MPI_Recv
//      from k (not a wildcard: its ignored status stays ignored);
//   3. MPI_Irecv(MPI_ANY_SOURCE, tag 3) + MPI_Wait(MPI_STATUS_IGNORE);
//   4. MPI_Irecv(MPI_ANY_SOURCE, tag 4) and MPI_Isend("go") +
//      MPI_Waitall(MPI_STATUSES_IGNORE): the receive's sender is kept,
//      the send's status stays ignored;
//   5. MPI_Sendrecv("go" to k, MPI_ANY_SOURCE tag 5, MPI_STATUS_IGNORE).
// Every received value is checked (k x 100 + step).
//
// Usage: ignored_status   (2 or more ranks)
#include "mpi_test_util.h"

namespace {

void go(int k) {
  int token = k;
  MPI_Send(&token, 1, MPI_INT, k, 0, MPI_COMM_WORLD);
}

void check(int got, int k, int step) {
  CHECK(got == k * 100 + step, "step %d: got %d from worker %d", step, got, k);
}

void serve(int k) {
  int got = -1;
  go(k);
  MPI_Recv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check(got, k, 1);
  go(k);
  MPI_Probe(MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Recv(&got, 1, MPI_INT, k, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  check(got, k, 2);
  MPI_Request req;
  MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, &req);
  go(k);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check(got, k, 3);
  MPI_Request reqs[2];
  int token = k;
  MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(&token, 1, MPI_INT, k, 0, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  check(got, k, 4);
  MPI_Sendrecv(&token, 1, MPI_INT, k, 0, &got, 1, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  check(got, k, 5);
}

void work(int rank) {
  for (int step = 1; step <= 5; ++step) {
    int token = -1;
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(token == rank, "step %d: token %d", step, token);
    const int value = rank * 100 + step;
    MPI_Send(&value, 1, MPI_INT, 0, step, MPI_COMM_WORLD);
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("ignored_status");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(size >= 2, "needs 2 or more ranks");
  if (rank == 0)
    for (int k = 1; k < size; ++k)
      serve(k);
  else
    work(rank);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
