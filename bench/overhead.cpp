// Overhead microbenchmark: time per MPI call, to be run twice by
// run_overhead.sh, once plain and once under libpilgrim.so, so that the
// difference is the time the tracer adds per intercepted call.
//   overhead comm_rank N      N calls of MPI_Comm_rank
//   overhead pingpong N       N/3 rounds of Isend+Irecv+Waitall (8 bytes) between 2 ranks
// and, on each rank alone (a message to itself, so that no call waits and an
// instruction count is the same run to run; bench/kept_senders.sh):
//   overhead self_recv N      N/3 rounds of Isend + Recv(from itself, MPI_STATUS_IGNORE) + Wait
//   overhead self_recv_any N  the same with Recv(MPI_ANY_SOURCE, MPI_STATUS_IGNORE)
//   overhead self_waitall_any N  N/3 rounds of Irecv(MPI_ANY_SOURCE) + Isend +
//                                Waitall(MPI_STATUSES_IGNORE)
//   overhead self_poll_any N  N/5 rounds of Irecv(MPI_ANY_SOURCE) + Test (fails:
//                             nothing sent yet) + Isend + Test until it succeeds +
//                             Wait (bench/replay_cost.sh: polls under order replay)
// and, with no MPI call in the loop (bench/posix_overhead.sh):
//   overhead pwrite N         N pwrites of 64 bytes at offset 0 of a temporary file
// Prints "<mode> ns_per_call <value>" from rank 0.
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 3) {
    if (rank == 0)
      std::fprintf(stderr, "usage: overhead comm_rank|pingpong|self_recv|self_recv_any|"
                           "self_waitall_any|self_poll_any|pwrite N\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const bool pingpong = std::strcmp(argv[1], "pingpong") == 0;
  const long n = std::atol(argv[2]);
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = std::chrono::steady_clock::now();
  long calls = 0;
  const bool self_recv = std::strcmp(argv[1], "self_recv") == 0;
  const bool self_recv_any = std::strcmp(argv[1], "self_recv_any") == 0;
  if (self_recv || self_recv_any || std::strcmp(argv[1], "self_waitall_any") == 0) {
    double out = rank, in = -1;
    MPI_Request req[2];
    for (long i = 0; i < n / 3; ++i) {
      if (self_recv || self_recv_any) {
        MPI_Isend(&out, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Recv(&in, 1, MPI_DOUBLE, self_recv ? rank : MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        MPI_Wait(&req[0], MPI_STATUS_IGNORE);
      } else {
        MPI_Irecv(&in, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&out, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      }
      if (in != rank) {
        std::fprintf(stderr, "overhead: wrong value received\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    calls = 3 * (n / 3);
  } else if (std::strcmp(argv[1], "self_poll_any") == 0) {
    double out = rank, in = -1;
    MPI_Request req[2];
    for (long i = 0; i < n / 5; ++i) {
      int flag = 0;
      MPI_Irecv(&in, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
      MPI_Isend(&out, 1, MPI_DOUBLE, rank, 0, MPI_COMM_WORLD, &req[1]);
      while (!flag) {
        MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE);
        ++calls;
      }
      MPI_Wait(&req[1], MPI_STATUS_IGNORE);
      if (in != rank) {
        std::fprintf(stderr, "overhead: wrong value received\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    calls += 4 * (n / 5);
  } else if (std::strcmp(argv[1], "pwrite") == 0) {
    char path[] = "/tmp/pilgrim-overhead-XXXXXX";
    const int fd = mkstemp(path);
    char data[64] = {};
    if (fd < 0) {
      std::perror("overhead: mkstemp");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    unlink(path);
    for (long i = 0; i < n; ++i)
      if (pwrite(fd, data, sizeof data, 0) != static_cast<ssize_t>(sizeof data)) {
        std::perror("overhead: pwrite");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    close(fd);
    calls = n;
  } else if (!pingpong) {
    int r = 0;
    for (long i = 0; i < n; ++i)
      MPI_Comm_rank(MPI_COMM_WORLD, &r);
    calls = n;
  } else {
    const int peer = rank ^ 1;
    double out = rank, in = -1;
    MPI_Request req[2];
    for (long i = 0; i < n / 3; ++i) {
      MPI_Irecv(&in, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(&out, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      if (in != peer) {
        std::fprintf(stderr, "overhead: wrong value received\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
      }
    }
    calls = 3 * (n / 3);
  }
  auto t1 = std::chrono::steady_clock::now();
  double ns =
      std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(calls);
  double worst = 0;
  MPI_Reduce(&ns, &worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0)
    std::printf("%s ns_per_call %.1f\n", argv[1], worst);
  MPI_Finalize();
  return 0;
}
