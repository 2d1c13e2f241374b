// grequest: a generalized request (MPI_Grequest_start / MPI_Grequest_complete),
// whose completion the application reports itself.
//
// Each rank starts a generalized request whose query callback fills the
// status (source = the rank, tag 11, 24 bytes), completes it with
// MPI_Grequest_complete (which takes the request by value), and waits for it
// with MPI_Wait: the status must be the callback's and the free callback must
// have run once. A second request is tested with MPI_Test before and after
// its completion. Runs with any number of ranks.
#include "mpi_test_util.h"

namespace {

struct State {
  int rank = -1;
  int queries = 0, frees = 0;
};

int query_fn(void *extra, MPI_Status *status) {
  State *s = static_cast<State *>(extra);
  ++s->queries;
  MPI_Status_set_elements(status, MPI_BYTE, 24);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = s->rank;
  status->MPI_TAG = 11;
  return MPI_SUCCESS;
}

int free_fn(void *extra) {
  ++static_cast<State *>(extra)->frees;
  return MPI_SUCCESS;
}

int cancel_fn(void *, int) { return MPI_SUCCESS; }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("grequest");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  State a, b;
  a.rank = b.rank = rank;
  MPI_Request req;
  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &a, &req);
  MPI_Grequest_complete(req);
  MPI_Status st;
  MPI_Wait(&req, &st);
  CHECK(req == MPI_REQUEST_NULL, "MPI_Wait left the generalized request active");
  CHECK_STATUS(st, MPI_BYTE, rank, 11, 24, "status of the first request");
  CHECK(a.frees == 1, "free callback ran %d times, expected 1", a.frees);
  CHECK(a.queries >= 1, "query callback never ran");

  MPI_Grequest_start(query_fn, free_fn, cancel_fn, &b, &req);
  int flag = 1;
  MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
  CHECK(flag == 0, "MPI_Test completed a generalized request before MPI_Grequest_complete");
  MPI_Grequest_complete(req);
  MPI_Test(&req, &flag, &st);
  CHECK(flag == 1, "MPI_Test did not complete the generalized request");
  CHECK_STATUS(st, MPI_BYTE, rank, 11, 24, "status of the second request");
  CHECK(b.frees == 1, "free callback ran %d times, expected 1", b.frees);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
