// late_rank: an imbalance made on purpose, for the timing reports
// (pilgrim-stats, test/stats/time_report.test). Each iteration the last
// rank computes (sleeps) for MS milliseconds before an MPI_Barrier, so the
// other ranks wait for it inside MPI_Barrier: they spend more time in MPI,
// the late rank least. An MPI_Allreduce of the ranks' numbers follows,
// checked against the serial sum.
//
// Usage: late_rank [-n ITER] [-s MS]   (defaults: 5 iterations, 20 ms)
// Works for any number of ranks >= 1 (the late rank is the last one).
#include "mpi_test_util.h"

#include <string>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("late_rank");
  int iters = 5, ms = 20;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      iters = mpitest::parse_count(argv[++a], "-n", 0);
    else if (arg == "-s" && a + 1 < argc)
      ms = mpitest::parse_count(argv[++a], "-s", 0);
    else
      mpitest::fail("unknown argument '%s' (usage: late_rank [-n ITER] [-s MS])", arg.c_str());
  }
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  // Ranks leave MPI_Init at different times (100 ms apart under an
  // oversubscribed MPICH): one MPI_Allreduce absorbs that skew first, so
  // that MPI_Barrier's imbalance is the one made on purpose.
  int ranks = 0;
  MPI_Allreduce(&size, &ranks, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (ranks != size)
    mpitest::fail("warm-up: max of the sizes %d, expected %d", ranks, size);
  for (int it = 0; it < iters; ++it) {
    if (rank == size - 1) {
      const timespec t{ms / 1000, (ms % 1000) * 1000000L};
      nanosleep(&t, nullptr);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const long long mine = rank + it;
    long long sum = -1;
    MPI_Allreduce(&mine, &sum, 1, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    const long long want =
        static_cast<long long>(size) * (size - 1) / 2 + static_cast<long long>(size) * it;
    if (sum != want)
      mpitest::fail("iteration %d: sum %lld, expected %lld", it, sum, want);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
