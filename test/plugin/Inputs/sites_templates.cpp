// A C++ program built with the plugin (test/plugin/sites_templates.test):
// MPI calls in two instantiations of a class template and an inline
// function (both in exchange.h), a lambda, a generic lambda, a function
// template and a macro. Checks its own results; prints "sites_templates: OK".
#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "exchange.h"

#define BCAST_INT(value) MPI_Bcast(&(value), 1, MPI_INT, 0, MPI_COMM_WORLD)

template <typename T> T broadcast(T value, MPI_Datatype type) {
  MPI_Bcast(&value, 1, type, 0, MPI_COMM_WORLD);
  return value;
}

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "sites_templates: %s failed\n", what);
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size;
  check(halo::Ring<int>().shift(rank, rank, size) == left, "Ring<int>");
  check(halo::Ring<double>().shift(rank * 0.5, rank, size) == left * 0.5, "Ring<double>");
  check(world_sum(1) == size, "world_sum");
  auto sync = [] { MPI_Barrier(MPI_COMM_WORLD); };
  sync();
  auto sum = [](auto v) {
    decltype(v) out{};
    MPI_Allreduce(&v, &out, 1, sizeof(v) == sizeof(int) ? MPI_INT : MPI_DOUBLE, MPI_SUM,
                  MPI_COMM_WORLD);
    return out;
  };
  check(sum(2) == 2 * size, "generic lambda");
  check(broadcast(rank == 0 ? 7.0 : 0.0, MPI_DOUBLE) == 7.0, "broadcast<double>");
  int seven = rank == 0 ? 7 : 0;
  BCAST_INT(seven);
  check(seven == 7, "BCAST_INT");
  if (rank == 0)
    std::printf("sites_templates: OK\n");
  MPI_Finalize();
  return 0;
}
