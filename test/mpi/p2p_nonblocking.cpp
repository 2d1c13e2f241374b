// p2p_nonblocking: nonblocking point-to-point communication and matched
// probes.
//
// MPI_Isend/MPI_Irecv/MPI_Issend completed with MPI_Wait, MPI_Waitall,
// MPI_Test and MPI_Testall; MPI_Request_free on an active send; MPI_Cancel
// and MPI_Test_cancelled on a receive that never matches; MPI_Mprobe/MPI_Mrecv
// and MPI_Improbe/MPI_Imrecv (including MPI_PROC_NULL / MPI_MESSAGE_NO_PROC).
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

void fill(std::vector<int> &buf, int src, int dst, int salt) {
  for (int i = 0; i < int(buf.size()); ++i) buf[i] = value(src, dst, i, salt);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("p2p_nonblocking");
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);
  const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  const int N = 6;
  MPI_Status st;

  // --- Isend/Irecv in both ring directions, MPI_Waitall --------------------
  {
    std::vector<int> to_next(N), to_prev(N), from_prev(N, -1), from_next(N, -1);
    fill(to_next, rank, next, 1);
    fill(to_prev, rank, prev, 2);
    MPI_Request reqs[4];
    MPI_Irecv(from_prev.data(), N, MPI_INT, prev, 1, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(from_next.data(), N, MPI_INT, next, 2, MPI_COMM_WORLD, &reqs[1]);
    MPI_Isend(to_next.data(), N, MPI_INT, next, 1, MPI_COMM_WORLD, &reqs[2]);
    MPI_Isend(to_prev.data(), N, MPI_INT, prev, 2, MPI_COMM_WORLD, &reqs[3]);
    MPI_Status sts[4];
    MPI_Waitall(4, reqs, sts);
    for (int k = 0; k < 4; ++k)
      CHECK(reqs[k] == MPI_REQUEST_NULL, "Waitall left request %d active", k);
    CHECK_STATUS(sts[0], MPI_INT, prev, 1, N, "Waitall receive from prev");
    CHECK_STATUS(sts[1], MPI_INT, next, 2, N, "Waitall receive from next");
    check_values(from_prev.data(), N, prev, rank, 1, "Waitall receive from prev");
    check_values(from_next.data(), N, next, rank, 2, "Waitall receive from next");
  }

  // --- Issend + Irecv completed one by one with MPI_Wait -------------------
  {
    std::vector<int> out(N), in(N, -1);
    fill(out, rank, next, 3);
    MPI_Request rreq, sreq;
    MPI_Irecv(in.data(), N, MPI_INT, prev, 3, MPI_COMM_WORLD, &rreq);
    MPI_Issend(out.data(), N, MPI_INT, next, 3, MPI_COMM_WORLD, &sreq);
    MPI_Wait(&rreq, &st);
    CHECK_STATUS(st, MPI_INT, prev, 3, N, "Wait on Irecv");
    check_values(in.data(), N, prev, rank, 3, "Wait on Irecv");
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    CHECK(rreq == MPI_REQUEST_NULL && sreq == MPI_REQUEST_NULL, "Wait left a request active");
  }

  // --- MPI_Test polling loop -----------------------------------------------
  {
    std::vector<int> out(N), in(N, -1);
    fill(out, rank, prev, 4);
    MPI_Request rreq, sreq;
    MPI_Irecv(in.data(), N, MPI_INT, MPI_ANY_SOURCE, 4, MPI_COMM_WORLD, &rreq);
    MPI_Isend(out.data(), N, MPI_INT, prev, 4, MPI_COMM_WORLD, &sreq);
    int flag = 0;
    while (!flag) MPI_Test(&rreq, &flag, &st);
    CHECK(rreq == MPI_REQUEST_NULL, "Test did not free the completed request");
    CHECK_STATUS(st, MPI_INT, next, 4, N, "Test on Irecv");
    check_values(in.data(), N, next, rank, 4, "Test on Irecv");
    flag = 0;
    while (!flag) MPI_Test(&sreq, &flag, MPI_STATUS_IGNORE);
    // Testing a null request succeeds immediately with an empty status.
    flag = 0;
    MPI_Test(&rreq, &flag, &st);
    CHECK(flag, "Test on MPI_REQUEST_NULL returned flag 0");
  }

  // --- MPI_Testall polling loop --------------------------------------------
  {
    const int peers = size - 1;  // everybody sends to everybody else
    std::vector<int> out(peers * N), in(peers * N, -1);
    std::vector<MPI_Request> reqs(2 * peers);
    for (int k = 0; k < peers; ++k) {
      const int src = (rank + size - 1 - k) % size;
      MPI_Irecv(&in[k * N], N, MPI_INT, src, 5, MPI_COMM_WORLD, &reqs[k]);
    }
    for (int k = 0; k < peers; ++k) {
      const int dst = (rank + 1 + k) % size;
      for (int i = 0; i < N; ++i) out[k * N + i] = value(rank, dst, i, 5);
      MPI_Isend(&out[k * N], N, MPI_INT, dst, 5, MPI_COMM_WORLD, &reqs[peers + k]);
    }
    std::vector<MPI_Status> sts(2 * peers);
    int flag = 0;
    while (!flag) MPI_Testall(2 * peers, reqs.data(), &flag, sts.data());
    for (int k = 0; k < peers; ++k) {
      const int src = (rank + size - 1 - k) % size;
      CHECK_STATUS(sts[k], MPI_INT, src, 5, N, "Testall receive");
      check_values(&in[k * N], N, src, rank, 5, "Testall receive");
    }
  }

  // --- MPI_Request_free on an active send ----------------------------------
  {
    std::vector<int> out(N), in(N, -1);
    fill(out, rank, next, 6);
    MPI_Request sreq;
    MPI_Isend(out.data(), N, MPI_INT, next, 6, MPI_COMM_WORLD, &sreq);
    MPI_Request_free(&sreq);
    CHECK(sreq == MPI_REQUEST_NULL, "Request_free did not reset the handle");
    MPI_Recv(in.data(), N, MPI_INT, prev, 6, MPI_COMM_WORLD, &st);
    CHECK_STATUS(st, MPI_INT, prev, 6, N, "Recv of freed Isend");
    check_values(in.data(), N, prev, rank, 6, "Recv of freed Isend");
    // `out` stays alive until everybody has received (barrier below).
    MPI_Barrier(MPI_COMM_WORLD);
  }

  // --- MPI_Cancel of a receive that can never match ------------------------
  {
    int dummy = 0;
    MPI_Request req;
    MPI_Irecv(&dummy, 1, MPI_INT, next, 999, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    CHECK(cancelled, "Irecv was not cancelled");
  }

  // --- MPI_Mprobe/MPI_Mrecv and MPI_Improbe/MPI_Imrecv on rank 0 -----------
  if (rank == 0) {
    std::vector<int> seen(size, 0);
    for (int k = 1; k < size; ++k) {
      MPI_Message msg = MPI_MESSAGE_NULL;
      MPI_Mprobe(MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &msg, &st);
      const int src = st.MPI_SOURCE;
      CHECK(src >= 1 && src < size && !seen[src], "Mprobe returned unexpected source %d", src);
      seen[src] = 1;
      int count = -1;
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == src + 1, "Mprobe: count %d from %d", count, src);
      std::vector<int> in(count, -1);
      MPI_Mrecv(in.data(), count, MPI_INT, &msg, &st);
      CHECK(msg == MPI_MESSAGE_NULL, "Mrecv did not reset the message handle");
      CHECK_STATUS(st, MPI_INT, src, 7, count, "Mrecv");
      check_values(in.data(), count, src, 0, 7, "Mrecv");
    }
    seen.assign(size, 0);
    for (int k = 1; k < size; ++k) {
      MPI_Message msg = MPI_MESSAGE_NULL;
      int flag = 0;
      while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 8, MPI_COMM_WORLD, &flag, &msg, &st);
      const int src = st.MPI_SOURCE;
      CHECK(src >= 1 && src < size && !seen[src], "Improbe returned unexpected source %d", src);
      seen[src] = 1;
      int count = -1;
      MPI_Get_count(&st, MPI_INT, &count);
      CHECK(count == 2 * src, "Improbe: count %d from %d", count, src);
      std::vector<int> in(count, -1);
      MPI_Request req;
      MPI_Imrecv(in.data(), count, MPI_INT, &msg, &req);
      CHECK(msg == MPI_MESSAGE_NULL, "Imrecv did not reset the message handle");
      MPI_Wait(&req, &st);
      CHECK_STATUS(st, MPI_INT, src, 8, count, "Imrecv");
      check_values(in.data(), count, src, 0, 8, "Imrecv");
    }
  } else {
    std::vector<int> a(rank + 1), b(2 * rank);
    fill(a, rank, 0, 7);
    fill(b, rank, 0, 8);
    MPI_Send(a.data(), int(a.size()), MPI_INT, 0, 7, MPI_COMM_WORLD);
    MPI_Send(b.data(), int(b.size()), MPI_INT, 0, 8, MPI_COMM_WORLD);
  }

  // --- Matched probes of MPI_PROC_NULL --------------------------------------
  {
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Mprobe(MPI_PROC_NULL, 9, MPI_COMM_WORLD, &msg, &st);
    CHECK(msg == MPI_MESSAGE_NO_PROC, "Mprobe(MPI_PROC_NULL) did not give MPI_MESSAGE_NO_PROC");
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG,
          "Mprobe(MPI_PROC_NULL) status source=%d tag=%d", st.MPI_SOURCE, st.MPI_TAG);
    int dummy = 42;
    MPI_Mrecv(&dummy, 1, MPI_INT, &msg, &st);
    int count = -1;
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0 && dummy == 42, "Mrecv(MPI_MESSAGE_NO_PROC) count=%d buffer=%d", count,
          dummy);
    int flag = 0;
    MPI_Improbe(MPI_PROC_NULL, 9, MPI_COMM_WORLD, &flag, &msg, &st);
    CHECK(flag && msg == MPI_MESSAGE_NO_PROC, "Improbe(MPI_PROC_NULL) flag=%d", flag);
    MPI_Request req;
    MPI_Imrecv(&dummy, 1, MPI_INT, &msg, &req);
    MPI_Wait(&req, &st);
    MPI_Get_count(&st, MPI_INT, &count);
    CHECK(count == 0 && dummy == 42, "Imrecv(MPI_MESSAGE_NO_PROC) count=%d buffer=%d", count,
          dummy);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
