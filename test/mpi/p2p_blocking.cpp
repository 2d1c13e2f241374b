// p2p_blocking: blocking point-to-point communication.
//
// MPI_Send/MPI_Recv, MPI_Ssend, MPI_Bsend with MPI_Buffer_attach/detach,
// MPI_Rsend (the receive is posted before a barrier), MPI_Sendrecv,
// MPI_Sendrecv_replace, MPI_Probe, MPI_Iprobe, MPI_Get_count,
// MPI_Get_elements and operations with MPI_PROC_NULL peers.
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

int value(int src, int dst, int i, int salt) { return salt * 100000 + src * 1000 + dst * 100 + i; }

void check_values(const int *buf, int n, int src, int dst, int salt, const char *what) {
  for (int i = 0; i < n; ++i)
    CHECK(buf[i] == value(src, dst, i, salt), "%s: element %d from %d is %d, expected %d", what,
          i, src, buf[i], value(src, dst, i, salt));
}

void check_null_status(const MPI_Status &st, const char *what) {
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG && count == 0,
        "%s: status from MPI_PROC_NULL has source=%d tag=%d count=%d", what, st.MPI_SOURCE,
        st.MPI_TAG, count);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("p2p_blocking");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int N = 8;
  std::vector<int> sbuf(N), rbuf(N);
  MPI_Status st;

  // --- MPI_Send / MPI_Recv: rank 0 to everybody and back ------------------
  if (rank == 0) {
    for (int dst = 1; dst < size; ++dst) {
      for (int i = 0; i < N; ++i) sbuf[i] = value(0, dst, i, 1);
      MPI_Send(sbuf.data(), N, MPI_INT, dst, 10, MPI_COMM_WORLD);
    }
    for (int src = 1; src < size; ++src) {
      rbuf.assign(N, -1);
      MPI_Recv(rbuf.data(), N, MPI_INT, src, 11, MPI_COMM_WORLD, &st);
      CHECK_STATUS(st, MPI_INT, src, 11, N - 1, "Recv reply");
      int elements = -1;
      MPI_Get_elements(&st, MPI_INT, &elements);
      CHECK(elements == N - 1, "Get_elements gave %d, expected %d", elements, N - 1);
      check_values(rbuf.data(), N - 1, src, 0, 2, "Recv reply");
      CHECK(rbuf[N - 1] == -1, "Recv wrote past the message");
    }
  } else {
    MPI_Recv(rbuf.data(), N, MPI_INT, 0, 10, MPI_COMM_WORLD, &st);
    CHECK_STATUS(st, MPI_INT, 0, 10, N, "Recv from 0");
    check_values(rbuf.data(), N, 0, rank, 1, "Recv from 0");
    for (int i = 0; i < N; ++i) sbuf[i] = value(rank, 0, i, 2);
    MPI_Send(sbuf.data(), N - 1, MPI_INT, 0, 11, MPI_COMM_WORLD);
  }

  // --- MPI_Ssend: everybody to rank 0, received in rank order --------------
  if (rank == 0) {
    for (int src = 1; src < size; ++src) {
      MPI_Recv(rbuf.data(), N, MPI_INT, src, 20, MPI_COMM_WORLD, &st);
      CHECK_STATUS(st, MPI_INT, src, 20, N, "Ssend receive");
      check_values(rbuf.data(), N, src, 0, 3, "Ssend receive");
    }
  } else {
    for (int i = 0; i < N; ++i) sbuf[i] = value(rank, 0, i, 3);
    MPI_Ssend(sbuf.data(), N, MPI_INT, 0, 20, MPI_COMM_WORLD);
  }

  // --- MPI_Bsend around the ring with an attached buffer -------------------
  {
    int pack_size = 0;
    MPI_Pack_size(N, MPI_INT, MPI_COMM_WORLD, &pack_size);
    const int bsize = 2 * (pack_size + MPI_BSEND_OVERHEAD);
    std::vector<char> attached(bsize);
    MPI_Buffer_attach(attached.data(), bsize);
    for (int i = 0; i < N; ++i) sbuf[i] = value(rank, next, i, 4);
    MPI_Bsend(sbuf.data(), N, MPI_INT, next, 30, MPI_COMM_WORLD);
    MPI_Bsend(sbuf.data(), N, MPI_INT, MPI_PROC_NULL, 30, MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) sbuf[i] = -7;  // the buffered copy must be unaffected
    MPI_Recv(rbuf.data(), N, MPI_INT, prev, 30, MPI_COMM_WORLD, &st);
    CHECK_STATUS(st, MPI_INT, prev, 30, N, "Bsend receive");
    check_values(rbuf.data(), N, prev, rank, 4, "Bsend receive");
    void *detached = nullptr;
    int detached_size = 0;
    MPI_Buffer_detach(&detached, &detached_size);
    CHECK(detached == attached.data() && detached_size == bsize,
          "Buffer_detach returned %p/%d, expected %p/%d", detached, detached_size,
          static_cast<void *>(attached.data()), bsize);
  }

  // --- MPI_Rsend: receive posted before the barrier ------------------------
  {
    MPI_Request req;
    rbuf.assign(N, -1);
    MPI_Irecv(rbuf.data(), N, MPI_INT, prev, 40, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < N; ++i) sbuf[i] = value(rank, next, i, 5);
    MPI_Rsend(sbuf.data(), N, MPI_INT, next, 40, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    CHECK_STATUS(st, MPI_INT, prev, 40, N, "Rsend receive");
    check_values(rbuf.data(), N, prev, rank, 5, "Rsend receive");
  }

  // --- MPI_Sendrecv: shift to the right ------------------------------------
  for (int i = 0; i < N; ++i) sbuf[i] = value(rank, next, i, 6);
  rbuf.assign(N, -1);
  MPI_Sendrecv(sbuf.data(), N, MPI_INT, next, 50, rbuf.data(), N, MPI_INT, prev, 50,
               MPI_COMM_WORLD, &st);
  CHECK_STATUS(st, MPI_INT, prev, 50, N, "Sendrecv");
  check_values(rbuf.data(), N, prev, rank, 6, "Sendrecv");

  // --- MPI_Sendrecv_replace: shift to the left -----------------------------
  for (int i = 0; i < N; ++i) rbuf[i] = value(rank, prev, i, 7);
  MPI_Sendrecv_replace(rbuf.data(), N, MPI_INT, prev, 60, next, 60, MPI_COMM_WORLD, &st);
  CHECK_STATUS(st, MPI_INT, next, 60, N, "Sendrecv_replace");
  check_values(rbuf.data(), N, next, rank, 7, "Sendrecv_replace");

  // --- MPI_Probe + MPI_Get_count: messages of unknown length ---------------
  if (rank == 0) {
    std::vector<int> seen(size, 0);
    for (int k = 1; k < size; ++k) {
      MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      const int src = st.MPI_SOURCE;
      CHECK(src >= 1 && src < size && !seen[src], "Probe returned unexpected source %d", src);
      seen[src] = 1;
      CHECK(st.MPI_TAG == 70 + src, "Probe: tag %d from %d, expected %d", st.MPI_TAG, src,
            70 + src);
      int count = -1;
      MPI_Get_count(&st, MPI_DOUBLE, &count);
      CHECK(count == 3 * src + 1, "Probe: count %d from %d, expected %d", count, src,
            3 * src + 1);
      std::vector<double> msg(count);
      MPI_Recv(msg.data(), count, MPI_DOUBLE, src, st.MPI_TAG, MPI_COMM_WORLD, &st);
      CHECK_STATUS(st, MPI_DOUBLE, src, 70 + src, count, "Recv after Probe");
      for (int i = 0; i < count; ++i)
        CHECK(msg[i] == src + 0.25 * i, "Probe message from %d: element %d is %g", src, i,
              msg[i]);
    }
  } else {
    std::vector<double> msg(3 * rank + 1);
    for (int i = 0; i < int(msg.size()); ++i) msg[i] = rank + 0.25 * i;
    MPI_Send(msg.data(), int(msg.size()), MPI_DOUBLE, 0, 70 + rank, MPI_COMM_WORLD);
  }

  // --- MPI_Iprobe: poll for a message from rank 0 ---------------------------
  {
    int flag = 1;
    // Nobody ever sends tag 999: the probe must come back empty.
    MPI_Iprobe(MPI_ANY_SOURCE, 999, MPI_COMM_WORLD, &flag, &st);
    CHECK(!flag, "Iprobe found a message with tag 999");
    if (rank == 0) {
      for (int i = 0; i < N; ++i) sbuf[i] = value(0, size - 1, i, 8);
      MPI_Send(sbuf.data(), N, MPI_INT, size - 1, 80, MPI_COMM_WORLD);
    } else if (rank == size - 1) {
      flag = 0;
      while (!flag) MPI_Iprobe(0, 80, MPI_COMM_WORLD, &flag, &st);
      CHECK_STATUS(st, MPI_INT, 0, 80, N, "Iprobe");
      MPI_Recv(rbuf.data(), N, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      check_values(rbuf.data(), N, 0, size - 1, 8, "Recv after Iprobe");
    }
  }

  // --- MPI_PROC_NULL peers: everything completes at once -------------------
  {
    rbuf.assign(N, -1);
    MPI_Send(sbuf.data(), N, MPI_INT, MPI_PROC_NULL, 90, MPI_COMM_WORLD);
    MPI_Ssend(sbuf.data(), N, MPI_INT, MPI_PROC_NULL, 90, MPI_COMM_WORLD);
    MPI_Rsend(sbuf.data(), N, MPI_INT, MPI_PROC_NULL, 90, MPI_COMM_WORLD);
    MPI_Recv(rbuf.data(), N, MPI_INT, MPI_PROC_NULL, 90, MPI_COMM_WORLD, &st);
    check_null_status(st, "Recv");
    MPI_Probe(MPI_PROC_NULL, 90, MPI_COMM_WORLD, &st);
    check_null_status(st, "Probe");
    int flag = 0;
    MPI_Iprobe(MPI_PROC_NULL, 90, MPI_COMM_WORLD, &flag, &st);
    CHECK(flag, "Iprobe of MPI_PROC_NULL returned flag 0");
    check_null_status(st, "Iprobe");
    // Edge ranks of a non-periodic chain talk to MPI_PROC_NULL on one side.
    const int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;
    const int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    for (int i = 0; i < N; ++i) sbuf[i] = value(rank, right, i, 9);
    MPI_Sendrecv(sbuf.data(), N, MPI_INT, right, 91, rbuf.data(), N, MPI_INT, left, 91,
                 MPI_COMM_WORLD, &st);
    if (left == MPI_PROC_NULL) {
      check_null_status(st, "Sendrecv");
      for (int i = 0; i < N; ++i) CHECK(rbuf[i] == -1, "Sendrecv from MPI_PROC_NULL wrote data");
    } else {
      CHECK_STATUS(st, MPI_INT, left, 91, N, "Sendrecv chain");
      check_values(rbuf.data(), N, left, rank, 9, "Sendrecv chain");
    }
    for (int i = 0; i < N; ++i) rbuf[i] = value(rank, left, i, 10);
    MPI_Sendrecv_replace(rbuf.data(), N, MPI_INT, left, 92, right, 92, MPI_COMM_WORLD, &st);
    if (right == MPI_PROC_NULL) {
      check_null_status(st, "Sendrecv_replace");
      check_values(rbuf.data(), N, rank, left, 10, "Sendrecv_replace from MPI_PROC_NULL");
    } else {
      CHECK_STATUS(st, MPI_INT, right, 92, N, "Sendrecv_replace chain");
      check_values(rbuf.data(), N, right, rank, 10, "Sendrecv_replace chain");
    }
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
