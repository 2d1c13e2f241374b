/* The plugin's static check of nonblocking calls (request_check.test): the
   functions named bad_* each get one warning, the good_* ones none. */
#include <mpi.h>

void handle_later(MPI_Request *request);

/* The buffer dies with its block; the request is waited for after. */
void bad_buffer_scope(int peer) {
  MPI_Request request;
  {
    int value = 1;
    MPI_Isend(&value, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/* An early return on one path leaves the request behind. */
int bad_early_return(int peer, int fail) {
  int value = 0;
  MPI_Request request;
  MPI_Irecv(&value, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  if (fail)
    return -1;
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  return value;
}

/* A request started in a loop body and never completed. */
void bad_loop_scope(int peer, int *data) {
  for (int i = 0; i < 4; ++i) {
    MPI_Request request;
    MPI_Isend(&data[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &request);
  }
}

/* The same request started twice. */
void bad_overwrite(int peer, int *data) {
  MPI_Request request;
  MPI_Isend(&data[0], 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  MPI_Isend(&data[1], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/* Overwritten by an assignment. */
void bad_assign(void) {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  request = MPI_REQUEST_NULL;
  MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/* Completed on every path. */
int good_wait(int peer, int fail) {
  int value = 0;
  MPI_Request request;
  MPI_Irecv(&value, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  if (fail) {
    MPI_Cancel(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    return -1;
  }
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  return value;
}

/* An array of requests, started in a loop, completed together. */
void good_array(int peer, int *data) {
  MPI_Request requests[4];
  for (int i = 0; i < 4; ++i)
    MPI_Isend(&data[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &requests[i]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

/* Tested until done, then started again. */
void good_test_loop(void) {
  MPI_Request request;
  for (int round = 0; round < 2; ++round) {
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &request);
    while (!done)
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  }
}

/* Freed. */
void good_free(int peer, int *data) {
  MPI_Request request;
  MPI_Isend(data, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  MPI_Request_free(&request);
}

/* Escapes: handed to another function, or its address stored. */
void good_escape(int peer, int *data, MPI_Request **out) {
  MPI_Request request, kept;
  MPI_Isend(data, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  handle_later(&request);
  MPI_Isend(data, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &kept);
  *out = &kept;
}

/* The request of a caller (a parameter) is the caller's to complete. */
void good_parameter(int peer, int *data, MPI_Request *request) {
  MPI_Isend(data, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, request);
}

/* A request compared with MPI_REQUEST_NULL before its wait. */
void good_compare(int peer, int *data) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (peer >= 0)
    MPI_Isend(data, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, &request);
  if (request != MPI_REQUEST_NULL)
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}
