// threaded_pingpong: two threads per rank exchange messages with the same
// threads of the partner rank (rank ^ 1) under MPI_THREAD_MULTIPLE, each
// thread on its own tag, so that a trace records calls of three threads per
// rank (the main thread's MPI_Init_thread, MPI_Barrier and MPI_Finalize,
// and each worker's MPI_Sendrecv calls).
//
// Every received value is checked against what the partner's thread sent.
//
// Usage: threaded_pingpong [-n ITER]   (default: 5 iterations)
// Needs an even number of ranks.
#include "mpi_test_util.h"

#include <string>
#include <thread>

int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  mpitest::set_name("threaded_pingpong");
  int iters = 5;
  for (int a = 1; a < argc; ++a)
    if (std::string(argv[a]) == "-n" && a + 1 < argc)
      iters = mpitest::parse_count(argv[++a], "-n", 1);
  CHECK(provided == MPI_THREAD_MULTIPLE, "MPI_THREAD_MULTIPLE not provided (%d)", provided);
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  const int size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(size % 2 == 0, "needs an even number of ranks, got %d", size);
  const int partner = rank ^ 1;
  int errors[2] = {0, 0};
  auto worker = [&](int t) {
    for (int i = 0; i < iters; ++i) {
      int out = rank * 1000 + t * 100 + i, in = -1;
      MPI_Sendrecv(&out, 1, MPI_INT, partner, t, &in, 1, MPI_INT, partner, t, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
      if (in != partner * 1000 + t * 100 + i)
        ++errors[t];
    }
  };
  std::thread a(worker, 0), b(worker, 1);
  a.join();
  b.join();
  CHECK(errors[0] == 0 && errors[1] == 0, "wrong values received (%d, %d)", errors[0], errors[1]);
  MPI_Barrier(MPI_COMM_WORLD);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
