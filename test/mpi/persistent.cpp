// persistent: persistent point-to-point requests reused over iterations.
//
// MPI_Send_init/MPI_Recv_init in both ring directions started with
// MPI_Startall and completed with MPI_Waitall; an MPI_Ssend_init/MPI_Recv_init
// pair started with MPI_Start and completed with MPI_Wait / MPI_Test; an
// MPI_Rsend_init whose matching receive is started before a barrier; requests
// to MPI_PROC_NULL; and MPI_Request_free of the inactive requests at the end.
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

int value(int src, int dst, int it, int i, int salt) {
  return salt * 1000000 + it * 10000 + src * 1000 + dst * 100 + i;
}

void check_values(const std::vector<int> &buf, int src, int dst, int it, int salt,
                  const char *what) {
  for (int i = 0; i < int(buf.size()); ++i)
    CHECK(buf[i] == value(src, dst, it, i, salt),
          "%s, iteration %d: element %d from %d is %d, expected %d", what, it, i, src, buf[i],
          value(src, dst, it, i, salt));
}

void fill(std::vector<int> &buf, int src, int dst, int it, int salt) {
  for (int i = 0; i < int(buf.size()); ++i) buf[i] = value(src, dst, it, i, salt);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("persistent");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int N = 5, ITERS = 4;

  std::vector<int> to_next(N), to_prev(N), from_prev(N), from_next(N);
  std::vector<int> sync_out(N), sync_in(N), ready_out(N), ready_in(N);
  int null_buf[2] = {-1, -1};

  // Ring exchange in both directions, all four started together.
  MPI_Request ring[4];
  MPI_Recv_init(from_prev.data(), N, MPI_INT, prev, 1, MPI_COMM_WORLD, &ring[0]);
  MPI_Recv_init(from_next.data(), N, MPI_INT, next, 2, MPI_COMM_WORLD, &ring[1]);
  MPI_Send_init(to_next.data(), N, MPI_INT, next, 1, MPI_COMM_WORLD, &ring[2]);
  MPI_Send_init(to_prev.data(), N, MPI_INT, prev, 2, MPI_COMM_WORLD, &ring[3]);
  // Synchronous send to the right, started one by one.
  MPI_Request sync_recv, sync_send;
  MPI_Recv_init(sync_in.data(), N, MPI_INT, prev, 3, MPI_COMM_WORLD, &sync_recv);
  MPI_Ssend_init(sync_out.data(), N, MPI_INT, next, 3, MPI_COMM_WORLD, &sync_send);
  // Ready send to the left: the receive is started before a barrier.
  MPI_Request ready_recv, ready_send;
  MPI_Recv_init(ready_in.data(), N, MPI_INT, next, 4, MPI_COMM_WORLD, &ready_recv);
  MPI_Rsend_init(ready_out.data(), N, MPI_INT, prev, 4, MPI_COMM_WORLD, &ready_send);
  // Persistent requests with MPI_PROC_NULL complete immediately once started.
  MPI_Request null_reqs[2];
  MPI_Send_init(&null_buf[0], 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &null_reqs[0]);
  MPI_Recv_init(&null_buf[1], 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &null_reqs[1]);

  for (int it = 0; it < ITERS; ++it) {
    fill(to_next, rank, next, it, 1);
    fill(to_prev, rank, prev, it, 2);
    from_prev.assign(N, -1);
    from_next.assign(N, -1);
    MPI_Startall(4, ring);
    MPI_Status sts[4];
    MPI_Waitall(4, ring, sts);
    for (int k = 0; k < 4; ++k)
      CHECK(ring[k] != MPI_REQUEST_NULL, "Waitall freed persistent request %d", k);
    CHECK_STATUS(sts[0], MPI_INT, prev, 1, N, "persistent receive from prev");
    CHECK_STATUS(sts[1], MPI_INT, next, 2, N, "persistent receive from next");
    check_values(from_prev, prev, rank, it, 1, "persistent receive from prev");
    check_values(from_next, next, rank, it, 2, "persistent receive from next");

    fill(sync_out, rank, next, it, 3);
    sync_in.assign(N, -1);
    MPI_Start(&sync_recv);
    MPI_Start(&sync_send);
    MPI_Status st;
    if (it % 2 == 0) {
      MPI_Wait(&sync_recv, &st);
    } else {
      int flag = 0;
      while (!flag) MPI_Test(&sync_recv, &flag, &st);
    }
    CHECK(sync_recv != MPI_REQUEST_NULL, "completion freed the persistent receive");
    CHECK_STATUS(st, MPI_INT, prev, 3, N, "persistent Ssend receive");
    check_values(sync_in, prev, rank, it, 3, "persistent Ssend receive");
    MPI_Wait(&sync_send, MPI_STATUS_IGNORE);

    fill(ready_out, rank, prev, it, 4);
    ready_in.assign(N, -1);
    MPI_Start(&ready_recv);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Start(&ready_send);
    MPI_Wait(&ready_send, MPI_STATUS_IGNORE);
    MPI_Wait(&ready_recv, &st);
    CHECK_STATUS(st, MPI_INT, next, 4, N, "persistent Rsend receive");
    check_values(ready_in, next, rank, it, 4, "persistent Rsend receive");

    MPI_Startall(2, null_reqs);
    MPI_Waitall(2, null_reqs, sts);
    int count = -1;
    MPI_Get_count(&sts[1], MPI_INT, &count);
    CHECK(count == 0 && null_buf[1] == -1, "receive from MPI_PROC_NULL: count %d, buffer %d",
          count, null_buf[1]);
  }

  MPI_Request *all[] = {&ring[0],    &ring[1],    &ring[2],     &ring[3],     &sync_recv,
                        &sync_send,  &ready_recv, &ready_send, &null_reqs[0], &null_reqs[1]};
  for (MPI_Request *req : all) {
    MPI_Request_free(req);
    CHECK(*req == MPI_REQUEST_NULL, "Request_free did not reset a persistent request");
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
