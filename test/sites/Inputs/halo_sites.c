/* A ring exchange in C whose MPI calls sit at known lines and columns: the
   lit tests in test/sites check them in the dump (file:line:col and the
   enclosing function). Keep the lines where they are, or update the tests. */
#include <mpi.h>
#include <stdio.h>

static int exchange(int rank, int size, int value) {
  int left = (rank + size - 1) % size, right = (rank + 1) % size, got = -1;
  MPI_Sendrecv(&value, 1, MPI_INT, right, 7, &got, 1, MPI_INT, left, 7, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  return got;
}

int main(int argc, char **argv) {
  int rank = 0, size = 0, ok = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int step = 0; step < 3; ++step) {
    int got = exchange(rank, size, 100 * step + rank);
    ok &= got == 100 * step + (rank + size - 1) % size;
  }
  int all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("halo_sites: %s\n", all ? "OK" : "FAILED");
  MPI_Finalize();
  return all ? 0 : 1;
}
