/* The macros of pilgrim/annotate.h in C (and, compiled with -x c++, C++).
 * Without WITH_MPI: no MPI at all, the macros do nothing and the program
 * prints "annotated: OK". With WITH_MPI: three steps, each a phase "step"
 * with a barrier traced and one untraced between PILGRIM_TRACE_OFF() and
 * PILGRIM_TRACE_ON(), then a phase "end". */
#include <pilgrim/annotate.h>

#ifdef WITH_MPI
#include <mpi.h>
#endif
#include <stdio.h>

int main(int argc, char **argv) {
  int rank = 0;
#ifdef WITH_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#else
  (void)argc;
  (void)argv;
#endif
  for (int i = 0; i < 3; ++i) {
    PILGRIM_PHASE("step");
#ifdef WITH_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    PILGRIM_TRACE_OFF();
#ifdef WITH_MPI
    MPI_Barrier(MPI_COMM_WORLD);
#endif
    PILGRIM_TRACE_ON();
  }
  PILGRIM_PHASE("end");
#ifdef WITH_MPI
  MPI_Finalize();
#endif
  if (rank == 0)
    puts("annotated: OK");
  return 0;
}
