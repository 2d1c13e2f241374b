/* A C program built with the plugin (test/plugin/sites_c.test): MPI calls
   in main, in a static function, through a macro, and a phase pragma. It
   checks its own results and prints "sites: OK". */
#include <mpi.h>
#include <stdio.h>

#define SYNC(comm) MPI_Barrier(comm)

static int total(int value) {
  int sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

int main(int argc, char **argv) {
  int rank, size, sum;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  SYNC(MPI_COMM_WORLD);
#pragma pilgrim phase("sum")
  sum = total(rank + 1);
  if (sum != size * (size + 1) / 2) {
    fprintf(stderr, "sites: rank %d: sum %d\n", rank, sum);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
#ifdef PILGRIM_PLUGIN
  if (rank == 0)
    printf("sites: built with the plugin\n");
#endif
  if (rank == 0)
    printf("sites: OK\n");
  MPI_Finalize();
  return 0;
}
