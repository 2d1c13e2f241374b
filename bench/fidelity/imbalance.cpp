// Fidelity benchmark: collectives between computations of different,
// deterministic cost on each rank (load imbalance).
//
// Each iteration has four phases; before phase p, rank r computes
// W * (2 + (r * (p + 1) + p) mod 3) / 2 terms of the sine-sum kernel, so
// which rank is slowest changes from phase to phase (with -v 1 it also
// changes from iteration to iteration: + it inside the mod).
//   0: MPI_Allreduce of the partial sums, checked against the closed forms;
//   1: MPI_Bcast of the root's sum (root it mod P), checked;
//   2: MPI_Barrier;
//   3: MPI_Alltoall of one value per peer (sender's and receiver's ranks and
//      the iteration), checked.
//
// Usage: imbalance [-n ITER] [-w TERMS] [-v 0|1]  (defaults 2000, 4000, 0)
#include "fidelity_check.h"
#include "fidelity_kernel.h"

#include <vector>

namespace {

long g_vary = 0;  // -v 1: the slowest rank also changes with the iteration

long terms(int rank, int phase, long it, long w) {
  return w * (2 + (long(rank) * (phase + 1) + phase + g_vary * it) % 3) / 2;
}
double x_of(int rank, int phase) { return 0.002 + 1e-4 * rank + 1e-5 * phase; }

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fidelity::g_name = "imbalance";
  const char *const names[] = {"-n", "-w", "-v"};
  long opt[] = {2000, 4000, 0};
  fidelity::parse_options(argc, argv, 3, names, opt);
  const long iters = opt[0], w = opt[1];
  g_vary = opt[2] != 0;
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> out(size), in(size);

  for (long it = 0; it < iters; ++it) {
    // Phase 0: Allreduce of every rank's sum.
    double mine = fidelity::sine_sum(terms(rank, 0, it, w), x_of(rank, 0)), sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double want = 0;
    for (int r = 0; r < size; ++r)
      want += fidelity::sine_sum_closed(terms(r, 0, it, w), x_of(r, 0));
    if (!(std::fabs(sum - want) <= 1e-9 * double(size * 3 * w)))
      fidelity::fail("iteration %ld: Allreduce gave %.17g, expected %.17g", it, sum, want);

    // Phase 1: Bcast of the root's sum.
    const int root = int(it % size);
    double value = fidelity::sine_sum(terms(rank, 1, it, w), x_of(rank, 1));
    MPI_Bcast(&value, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
    if (!fidelity::sine_sum_ok(value, terms(root, 1, it, w), x_of(root, 1)))
      fidelity::fail("iteration %ld: Bcast from %d gave %.17g", it, root, value);

    // Phase 2: Barrier.
    volatile double sink = fidelity::sine_sum(terms(rank, 2, it, w), x_of(rank, 2));
    (void)sink;
    MPI_Barrier(MPI_COMM_WORLD);

    // Phase 3: Alltoall.
    volatile double sink3 = fidelity::sine_sum(terms(rank, 3, it, w), x_of(rank, 3));
    (void)sink3;
    for (int r = 0; r < size; ++r)
      out[r] = double(rank * 1000 + r) + 1e6 * double(it % 1000);
    MPI_Alltoall(out.data(), 1, MPI_DOUBLE, in.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      if (in[r] != double(r * 1000 + rank) + 1e6 * double(it % 1000))
        fidelity::fail("iteration %ld: Alltoall from %d gave %.17g", it, r, in[r]);
  }
  MPI_Finalize();
  if (rank == 0)
    std::printf("imbalance: OK (%d ranks, %ld iterations)\n", size, iters);
  return 0;
}
