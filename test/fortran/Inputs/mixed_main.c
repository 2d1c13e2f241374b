/* mixed_main: a C main that initializes MPI and then calls a Fortran
   subroutine (mixed_kernel.f90) which uses Fortran's MPI sentinels:
   test/fortran/mixed_init.test. The sentinels are the Fortran library's
   own, set by its start-up, which no Fortran MPI_Init ran here. */
#include <mpi.h>
#include <stdio.h>

void mixed_kernel_(int *errors);

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, errors = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mixed_kernel_(&errors);
  int all = 0;
  MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (all == 0)
      printf("mixed_init: OK\n");
    else
      printf("mixed_init: %d errors\n", all);
  }
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
