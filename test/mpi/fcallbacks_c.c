/* The C twin of fcallbacks.f90: the same MPI calls with the same arguments
 * (attribute values and extra states are the Fortran program's integers,
 * passed as C's pointers), so that its trace equals the Fortran program's
 * but for the calls test/fortran/fcallbacks.test names. Prints
 * "fcallbacks_c: OK". */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

/* The MPI-1 attribute functions, as the Fortran program calls them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static int copies, deletes, bad_cb;

static void vmax(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype) {
  const int *in = invec;
  int *io = inoutvec;
  (void)datatype;
  for (int i = 0; i < *len; ++i)
    io[i] = in[i] > io[i] ? in[i] : io[i];
}

static int copy_cb(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                   void *attribute_val_out, int *flag) {
  (void)oldcomm;
  (void)keyval;
  ++copies;
  bad_cb += (intptr_t)extra_state != 1000;
  *(void **)attribute_val_out = (void *)((intptr_t)attribute_val_in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}

static int delete_cb(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state) {
  (void)comm;
  (void)keyval;
  ++deletes;
  bad_cb += (intptr_t)extra_state != 1000 || (intptr_t)attribute_val < 42;
  return MPI_SUCCESS;
}

static int copy1(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                 void *attribute_val_out, int *flag) {
  (void)oldcomm;
  (void)keyval;
  (void)extra_state;
  *(void **)attribute_val_out = attribute_val_in;
  *flag = 0;
  return MPI_SUCCESS;
}

static int delete1(MPI_Comm comm, int keyval, void *attribute_val, void *extra_state) {
  (void)comm;
  (void)keyval;
  ++deletes;
  (void)extra_state;
  bad_cb += (intptr_t)attribute_val != 5;
  return MPI_SUCCESS;
}

static int ibuf[4], rbuf[4], bbuf[256];

int main(int argc, char **argv) {
  int rank, nranks, bad = 0, k, keyval, kv1, tkv, flag, disp = 4, bsize = 1024, dsize, recv, qdisp;
  MPI_Op op;
  MPI_Comm dup, shm;
  MPI_Win win, swin;
  MPI_Aint size, qsize;
  void *got, *addr;
  int *mem, *wmem, *smem, *tag_ub;

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const int left = (rank + nranks - 1) % nranks, right = (rank + 1) % nranks;

  /* A user-defined reduction */
  MPI_Op_create(vmax, 1, &op);
  for (k = 0; k < 4; ++k)
    ibuf[k] = rank * (k + 1);
  MPI_Allreduce(ibuf, rbuf, 4, MPI_INTEGER, op, MPI_COMM_WORLD);
  for (k = 0; k < 4; ++k)
    bad += rbuf[k] != (nranks - 1) * (k + 1);
  MPI_Op_free(&op);
  bad += op != MPI_OP_NULL;

  /* A keyval with callbacks, its attribute on MPI_COMM_WORLD and a duplicate */
  MPI_Comm_create_keyval(copy_cb, delete_cb, &keyval, (void *)(intptr_t)1000);
  MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, (void *)(intptr_t)(42 + rank));
  MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
  bad += !flag || (intptr_t)got != 42 + rank;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  bad += copies != 1;
  MPI_Comm_get_attr(dup, keyval, &got, &flag);
  bad += !flag || (intptr_t)got != 43 + rank;
  MPI_Comm_set_attr(dup, keyval, (void *)(intptr_t)50); /* deletes the copy first */
  bad += deletes != 1;
  MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
  bad += deletes != 2;
  MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, &flag);
  bad += flag != 0;
  MPI_Comm_free(&dup);
  bad += deletes != 3;
  MPI_Comm_free_keyval(&keyval);

  /* MPI-1 attributes */
  MPI_Keyval_create(copy1, delete1, &kv1, (void *)(intptr_t)7);
  MPI_Attr_put(MPI_COMM_WORLD, kv1, (void *)(intptr_t)5);
  MPI_Attr_get(MPI_COMM_WORLD, kv1, &got, &flag);
  bad += !flag || (intptr_t)got != 5;
  MPI_Attr_delete(MPI_COMM_WORLD, kv1);
  bad += deletes != 4;
  MPI_Keyval_free(&kv1);
  bad += bad_cb != 0;

  /* A datatype keyval with the predefined callbacks */
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &tkv,
                         (void *)(intptr_t)1000);
  MPI_Type_set_attr(MPI_INTEGER, tkv, (void *)(intptr_t)9);
  MPI_Type_get_attr(MPI_INTEGER, tkv, &got, &flag);
  bad += !flag || (intptr_t)got != 9;
  MPI_Type_delete_attr(MPI_INTEGER, tkv);
  MPI_Type_free_keyval(&tkv);

  /* A predefined attribute: C reads a pointer to its value */
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
  bad += !flag || *tag_ub < 32767;

  /* Memory MPI allocates */
  size = 64;
  MPI_Alloc_mem(size, MPI_INFO_NULL, &mem);
  for (k = 0; k < 16; ++k)
    mem[k] = rank;
  MPI_Bcast(mem, 16, MPI_INTEGER, 0, MPI_COMM_WORLD);
  for (k = 0; k < 16; ++k)
    bad += mem[k] != 0;
  MPI_Free_mem(mem);

  /* A window MPI allocates */
  size = 16;
  MPI_Win_allocate(size, disp, MPI_INFO_NULL, MPI_COMM_WORLD, &wmem, &win);
  for (k = 0; k < 4; ++k)
    wmem[k] = -1;
  MPI_Win_fence(0, win);
  MPI_Put(&rank, 1, MPI_INTEGER, right, 1, 1, MPI_INTEGER, win);
  MPI_Win_fence(0, win);
  bad += wmem[1] != left || wmem[0] != -1;
  MPI_Win_free(&win);

  /* A shared window */
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
  MPI_Win_allocate_shared(size, disp, MPI_INFO_NULL, shm, &smem, &swin);
  for (k = 0; k < 4; ++k)
    smem[k] = 100;
  MPI_Win_fence(0, swin);
  MPI_Win_shared_query(swin, 0, &qsize, &qdisp, &addr);
  bad += qsize != 16 || qdisp != 4;
  smem = addr;
  for (k = 0; k < 4; ++k)
    bad += smem[k] != 100;
  MPI_Win_fence(0, swin);
  MPI_Win_free(&swin);
  MPI_Comm_free(&shm);

  /* A buffered send */
  MPI_Buffer_attach(bbuf, bsize);
  MPI_Bsend(&rank, 1, MPI_INTEGER, right, 3, MPI_COMM_WORLD);
  MPI_Recv(&recv, 1, MPI_INTEGER, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  bad += recv != left;
  MPI_Buffer_detach(&addr, &dsize);
  bad += dsize != bsize;

  MPI_Pcontrol(1);

  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && bad == 0)
    printf("fcallbacks_c: OK\n");
  else if (rank == 0)
    printf("fcallbacks_c: FAILED %d\n", bad);
  MPI_Finalize();
  return 0;
}
