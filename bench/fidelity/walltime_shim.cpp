// LD_PRELOAD shim of the fidelity benchmark: measures the same window of any
// MPI program, original or proxy, traced or not. After MPI_Init(_thread) it
// synchronizes the ranks and starts a clock; in MPI_Finalize it synchronizes
// them again and rank 0 prints "fidelity-walltime SECONDS" to stderr before
// finalizing. It reaches the next MPI_Init/MPI_Finalize (libpilgrim.so or the
// MPI library) through RTLD_NEXT and synchronizes with PMPI_Barrier, so a
// tracer loaded after it records nothing of its own.
#include <dlfcn.h>
#include <mpi.h>

#include <chrono>
#include <cstdio>

namespace {

std::chrono::steady_clock::time_point g_start;

template <typename F> F next_symbol(const char *name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

void start_clock() {
  PMPI_Barrier(MPI_COMM_WORLD);
  g_start = std::chrono::steady_clock::now();
}

}  // namespace

extern "C" int MPI_Init(int *argc, char ***argv) {
  const int rc = next_symbol<int (*)(int *, char ***)>("MPI_Init")(argc, argv);
  start_clock();
  return rc;
}

extern "C" int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  const int rc = next_symbol<int (*)(int *, char ***, int, int *)>("MPI_Init_thread")(
      argc, argv, required, provided);
  start_clock();
  return rc;
}

extern "C" int MPI_Finalize() {
  PMPI_Barrier(MPI_COMM_WORLD);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_start).count();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::fprintf(stderr, "fidelity-walltime %.6f\n", s);
  return next_symbol<int (*)()>("MPI_Finalize")();
}
