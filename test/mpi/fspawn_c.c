/* The C twin of fspawn.f90: the same MPI calls, the child spawned with the
 * arguments {"child", NULL}. Prints "fspawn_c: OK". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Comm parent, inter;
  int errcodes[1] = {-1}, rank, n = 0, bad = 0;
  char child[] = "child";
  char *args[] = {child, NULL};
  MPI_Init(&argc, &argv);
  MPI_Comm_get_parent(&parent);
  if (parent == MPI_COMM_NULL) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    bad += MPI_Comm_spawn(argv[0], args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes) !=
           MPI_SUCCESS;
    if (rank == 0) {
      MPI_Recv(&n, 1, MPI_INTEGER, 0, 5, inter, MPI_STATUS_IGNORE);
      bad += n != 43 || errcodes[0] != MPI_SUCCESS;
    }
    MPI_Comm_disconnect(&inter);
    MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && bad == 0)
      printf("fspawn_c: OK\n");
    else if (rank == 0)
      printf("fspawn_c: FAILED %d\n", bad);
  } else {
    n = argc > 1 && strcmp(argv[1], "child") == 0 ? 43 : 0;
    MPI_Send(&n, 1, MPI_INTEGER, 0, 5, parent);
    MPI_Comm_disconnect(&parent);
  }
  MPI_Finalize();
  return 0;
}
