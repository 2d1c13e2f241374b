// allreduce_loop: a loop of reductions, as in the convergence check of an
// iterative solver, with an occasional broadcast of new parameters.
//
// Each iteration reduces four integers with MPI_SUM and two with MPI_MAX in
// MPI_Allreduce; every EVERY-th iteration rank 0 broadcasts four integers
// with MPI_Bcast.  Every rank contributes values that depend on its rank and
// the iteration, so each result is checked against the sum or maximum
// computed serially over all ranks.  Counts, datatypes and operations are the
// same on every rank.
//
// Usage: allreduce_loop [-n ITER] [-b EVERY]   (defaults: 50 iterations,
//        a broadcast every 10; -b 0: no broadcasts)
// Works for any number of ranks >= 1.
#include "mpi_test_util.h"

#include <string>

namespace {

// The i-th value that rank r contributes in iteration it.
long long contribution(int r, int it, int i) {
  return (long long)(r + 1) * (it + 1) * (i + 1) + (r * 7 + it * 3 + i) % 11;
}

// A value whose maximum over the ranks moves from rank to rank.
int peak(int r, int it, int i, int size) { return ((r + it * (i + 1)) % size) * 100 + i; }

// The i-th broadcast value of iteration it.
int broadcast_value(int it, int i) { return it * 1000 + i * 17 + 5; }

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("allreduce_loop");

  int iters = 50, every = 10;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc) {
      iters = mpitest::parse_count(argv[++a], "-n", 0);
    } else if (arg == "-b" && a + 1 < argc) {
      every = mpitest::parse_count(argv[++a], "-b", 0);
    } else {
      mpitest::fail("unknown argument '%s' (usage: allreduce_loop [-n ITER] [-b EVERY])",
                    arg.c_str());
    }
  }

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  for (int it = 0; it < iters; ++it) {
    long long sum_in[4], sum_out[4] = {-1, -1, -1, -1};
    for (int i = 0; i < 4; ++i)
      sum_in[i] = contribution(rank, it, i);
    MPI_Allreduce(sum_in, sum_out, 4, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);

    int max_in[2], max_out[2] = {-1, -1};
    for (int i = 0; i < 2; ++i)
      max_in[i] = peak(rank, it, i, size);
    MPI_Allreduce(max_in, max_out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);

    for (int i = 0; i < 4; ++i) {
      long long want = 0;
      for (int r = 0; r < size; ++r)
        want += contribution(r, it, i);
      CHECK(sum_out[i] == want, "iteration %d: sum %d is %lld, expected %lld", it, i, sum_out[i],
            want);
    }
    for (int i = 0; i < 2; ++i) {
      int want = -1;
      for (int r = 0; r < size; ++r)
        want = peak(r, it, i, size) > want ? peak(r, it, i, size) : want;
      CHECK(max_out[i] == want, "iteration %d: maximum %d is %d, expected %d", it, i, max_out[i],
            want);
    }

    if (every > 0 && it % every == every - 1) {
      int params[4];
      for (int i = 0; i < 4; ++i)
        params[i] = rank == 0 ? broadcast_value(it, i) : -1;
      MPI_Bcast(params, 4, MPI_INT, 0, MPI_COMM_WORLD);
      for (int i = 0; i < 4; ++i)
        CHECK(params[i] == broadcast_value(it, i),
              "iteration %d: broadcast value %d is %d, expected %d", it, i, params[i],
              broadcast_value(it, i));
    }
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
