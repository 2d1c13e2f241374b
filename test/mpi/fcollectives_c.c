/* The C twin of fcollectives.f90: the same MPI calls with the same
 * arguments (the Fortran program's datatypes, MPI_INTEGER and
 * MPI_DOUBLE_PRECISION; arrays indexed as it indexes them), so that its
 * trace equals the Fortran program's but for MPI_Init's arguments
 * (test/fortran/fcollectives.test). Prints "fcollectives_c: OK". */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

/* MPICH's MPI_STATUSES_IGNORE is the address 1, which GCC's access checks
 * of MPI_Waitsome's prototype take for an array too small. */
#pragma GCC diagnostic ignored "-Wstringop-overflow"

enum { nmax = 16 };
static int ibuf[nmax], rbuf[nmax], gath[nmax], a2a_s[nmax], a2a_r[nmax];
static double dsum[4];

int main(int argc, char **argv) {
  int rank, nranks, subrank, subsize, bad = 0, left, right, count, resultlen, total, token, k;
  int outcount, idx[nmax], blocklens[2] = {1, 1};
  MPI_Comm sub;
  MPI_Datatype vec, pair, ctype, types[2] = {MPI_INTEGER, MPI_DOUBLE_PRECISION};
  MPI_Aint displs[2] = {0, 8}, lb, extent, addrs[2];
  MPI_Datatype abstype;
  MPI_Request req[nmax];
  MPI_Status sts[nmax], st;
  char got[MPI_MAX_OBJECT_NAME];

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);

  /* Bcast */
  if (rank == 0)
    for (k = 0; k < 4; ++k)
      ibuf[k] = k + 1;
  MPI_Bcast(ibuf, 4, MPI_INTEGER, 0, MPI_COMM_WORLD);
  for (k = 0; k < 4; ++k)
    bad += ibuf[k] != k + 1;

  /* Allreduce in place */
  for (k = 0; k < 4; ++k)
    dsum[k] = rank + 1;
  MPI_Allreduce(MPI_IN_PLACE, dsum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD);
  for (k = 0; k < 4; ++k)
    bad += dsum[k] != nranks * (nranks + 1) / 2;

  /* Reduce in place at the root */
  ibuf[0] = rank * 3;
  if (rank == 0) {
    MPI_Reduce(MPI_IN_PLACE, ibuf, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD);
    bad += ibuf[0] != (nranks - 1) * 3;
  } else {
    MPI_Reduce(ibuf, rbuf, 1, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD);
  }

  /* Gather, Allgather in place, Alltoall */
  ibuf[0] = rank * 10;
  MPI_Gather(ibuf, 1, MPI_INTEGER, gath, 1, MPI_INTEGER, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (k = 0; k < nranks; ++k)
      bad += gath[k] != k * 10;
  gath[rank] = rank + 7;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, gath, 1, MPI_INTEGER, MPI_COMM_WORLD);
  for (k = 0; k < nranks; ++k)
    bad += gath[k] != k + 7;
  for (k = 0; k < nranks; ++k)
    a2a_s[k] = rank * 100 + k;
  MPI_Alltoall(a2a_s, 1, MPI_INTEGER, a2a_r, 1, MPI_INTEGER, MPI_COMM_WORLD);
  for (k = 0; k < nranks; ++k)
    bad += a2a_r[k] != k * 100 + rank;

  /* Split into even and odd ranks, in reverse order; a name */
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &sub);
  MPI_Comm_rank(sub, &subrank);
  MPI_Comm_size(sub, &subsize);
  bad += subsize != (nranks + 1 - rank % 2) / 2;
  bad += subrank != subsize - 1 - rank / 2;
  MPI_Comm_set_name(sub, "half");
  MPI_Comm_get_name(sub, got, &resultlen);
  bad += resultlen != 4 || strcmp(got, "half") != 0;
  MPI_Allreduce(&rank, &total, 1, MPI_INTEGER, MPI_SUM, sub);
  k = 0;
  for (int i = rank % 2; i < nranks; i += 2)
    k += i;
  bad += total != k;
  MPI_Comm_free(&sub);
  bad += sub != MPI_COMM_NULL;

  /* Derived datatypes */
  MPI_Type_vector(2, 1, 2, MPI_INTEGER, &vec);
  MPI_Type_contiguous(2, MPI_INTEGER, &pair);
  MPI_Type_create_struct(2, blocklens, displs, types, &ctype);
  MPI_Type_commit(&vec);
  MPI_Type_commit(&pair);
  MPI_Type_commit(&ctype);
  MPI_Type_get_extent(ctype, &lb, &extent);
  bad += lb != 0 || extent != 16;
  right = (rank + 1) % nranks;
  left = (rank + nranks - 1) % nranks;
  for (k = 0; k < 4; ++k)
    ibuf[k] = rank * 10 + k + 1;
  for (k = 0; k < nmax; ++k)
    rbuf[k] = -1;
  MPI_Sendrecv(ibuf, 1, vec, right, 5, rbuf, 1, pair, left, 5, MPI_COMM_WORLD, &st);
  bad += rbuf[0] != left * 10 + 1 || rbuf[1] != left * 10 + 3 || rbuf[2] != -1;
  MPI_Get_count(&st, pair, &count);
  bad += count != 1 || st.MPI_SOURCE != left;
  MPI_Type_free(&vec);
  MPI_Type_free(&pair);
  MPI_Type_free(&ctype);

  /* Absolute addresses: elements 1 and 3 from MPI_BOTTOM */
  MPI_Get_address(&ibuf[0], &addrs[0]);
  MPI_Get_address(&ibuf[2], &addrs[1]);
  MPI_Type_create_hindexed(2, blocklens, addrs, MPI_INTEGER, &abstype);
  MPI_Type_commit(&abstype);
  for (k = 0; k < nmax; ++k)
    rbuf[k] = -1;
  MPI_Sendrecv(MPI_BOTTOM, 1, abstype, right, 6, rbuf, 2, MPI_INTEGER, left, 6, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  bad += rbuf[0] != left * 10 + 1 || rbuf[1] != left * 10 + 3 || rbuf[2] != -1;
  MPI_Type_free(&abstype);

  /* A Waitsome loop: one receive completes per call */
  if (rank == 0) {
    for (k = 1; k < nranks; ++k)
      MPI_Irecv(&rbuf[k - 1], 1, MPI_INTEGER, k, 7, MPI_COMM_WORLD, &req[k - 1]);
    for (k = 1; k < nranks; ++k) {
      token = k;
      MPI_Send(&token, 1, MPI_INTEGER, k, 8, MPI_COMM_WORLD);
      MPI_Waitsome(nranks - 1, req, &outcount, idx, sts);
      bad += outcount != 1 || idx[0] != k - 1;
      bad += sts[0].MPI_SOURCE != k || sts[0].MPI_TAG != 7 || rbuf[k - 1] != k * 11;
      bad += req[k - 1] != MPI_REQUEST_NULL;
    }
    MPI_Waitsome(nranks - 1, req, &outcount, idx, MPI_STATUSES_IGNORE);
    bad += outcount != MPI_UNDEFINED;
  } else {
    MPI_Recv(&token, 1, MPI_INTEGER, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    bad += token != rank;
    token = rank * 11;
    MPI_Send(&token, 1, MPI_INTEGER, 0, 7, MPI_COMM_WORLD);
  }

  if (bad) {
    printf("fcollectives_c: rank %d FAILED checks: %d\n", rank, bad);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (rank == 0)
    printf("fcollectives_c: OK\n");
  MPI_Finalize();
  return 0;
}
