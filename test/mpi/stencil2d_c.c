/* The C twin of stencil2d.f90: the same MPI calls with the same arguments
 * (the block is indexed u(i, j) as Fortran lays it out, column-major, and
 * the datatypes are the Fortran program's, MPI_DOUBLE_PRECISION), so that
 * its trace equals the Fortran program's but for MPI_Init's arguments
 * (test/fortran/stencil2d.test). Prints "stencil2d_c: OK". */
#include <mpi.h>
#include <stdio.h>

enum { n = 6, iters = 4, ld = n + 2 };
static double u[ld * ld];
#define U(i, j) u[(i) + (j)*ld]

static double val(int r, int it, int i, int j) { return r * 100000 + it * 10000 + i * 100 + j; }

int main(int argc, char **argv) {
  int rank, nranks, dims[2] = {0, 0}, periods[2] = {1, 1};
  int left, right, down, up, bad = 0;
  MPI_Comm comm;
  MPI_Datatype rowtype;
  MPI_Request req[8];
  MPI_Status stats[8];
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  MPI_Dims_create(nranks, 2, dims);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm);
  MPI_Comm_rank(comm, &rank);
  MPI_Cart_shift(comm, 0, 1, &left, &right);
  MPI_Cart_shift(comm, 1, 1, &down, &up);
  MPI_Type_vector(n, 1, n + 2, MPI_DOUBLE_PRECISION, &rowtype);
  MPI_Type_commit(&rowtype);

  for (int it = 1; it <= iters; ++it) {
    for (int k = 0; k < ld * ld; ++k)
      u[k] = -1;
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        U(i, j) = val(rank, it, i, j);
    MPI_Irecv(&U(0, 1), 1, rowtype, left, 0, comm, &req[0]);
    MPI_Irecv(&U(n + 1, 1), 1, rowtype, right, 1, comm, &req[1]);
    MPI_Irecv(&U(1, 0), n, MPI_DOUBLE_PRECISION, down, 2, comm, &req[2]);
    MPI_Irecv(&U(1, n + 1), n, MPI_DOUBLE_PRECISION, up, 3, comm, &req[3]);
    MPI_Isend(&U(n, 1), 1, rowtype, right, 0, comm, &req[4]);
    MPI_Isend(&U(1, 1), 1, rowtype, left, 1, comm, &req[5]);
    MPI_Isend(&U(1, n), n, MPI_DOUBLE_PRECISION, up, 2, comm, &req[6]);
    MPI_Isend(&U(1, 1), n, MPI_DOUBLE_PRECISION, down, 3, comm, &req[7]);
    if (MPI_Waitall(8, req, stats) != MPI_SUCCESS)
      ++bad;
    for (int k = 0; k < 8; ++k)
      bad += req[k] != MPI_REQUEST_NULL;
    bad += stats[0].MPI_SOURCE != left || stats[1].MPI_SOURCE != right;
    bad += stats[2].MPI_SOURCE != down || stats[3].MPI_SOURCE != up;
    bad += stats[2].MPI_TAG != 2;
    for (int j = 1; j <= n; ++j) {
      bad += U(0, j) != val(left, it, n, j);
      bad += U(n + 1, j) != val(right, it, 1, j);
    }
    for (int i = 1; i <= n; ++i) {
      bad += U(i, 0) != val(down, it, i, n);
      bad += U(i, n + 1) != val(up, it, i, 1);
    }
    double local = 0, global, expect = 0;
    for (int j = 1; j <= n; ++j)
      for (int i = 1; i <= n; ++i)
        local += U(i, j);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm);
    for (int r = 0; r < nranks; ++r)
      for (int j = 1; j <= n; ++j)
        for (int i = 1; i <= n; ++i)
          expect += val(r, it, i, j);
    bad += global != expect;
  }

  MPI_Type_free(&rowtype);
  bad += rowtype != MPI_DATATYPE_NULL;
  MPI_Comm_free(&comm);
  bad += comm != MPI_COMM_NULL;
  if (bad) {
    printf("stencil2d_c: rank %d FAILED checks: %d\n", rank, bad);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0)
    printf("stencil2d_c: OK\n");
  MPI_Finalize();
  return 0;
}
