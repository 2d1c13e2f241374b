// arrival_order: the order replay test of issue 28. Workers sleep seeded
// random times and send the master numbered doubles; the master receives
// with MPI_ANY_SOURCE and sums in arrival order, so that both the arrival
// sequence and the floating-point sum (whose rounding depends on the order)
// change from run to run. Rank 0 prints them:
//   arrival: 2 1 3 3 1 ...
//   sum: 0x1.8p+4
// and checks what holds in every order: each worker's messages arrive in
// the order it sent them (MPI's non-overtaking rule), all of them arrive,
// and the sum is the exact one within rounding.
// Options: -n MESSAGES per worker (default 4), -s SEED (default: from the
// clock, so that plain runs differ), -w MAX_SLEEP_US (default 20000),
// -i: the master passes MPI_STATUS_IGNORE and learns the sender from the
// payload (the tracer then keeps the sender itself, FORMAT.md §8.3).
// -p N: the master receives through N persistent MPI_ANY_SOURCE/MPI_ANY_TAG
// receives (MPI_Recv_init) instead: with 1, MPI_Start then MPI_Wait; with
// more, MPI_Startall, then MPI_Waitany and MPI_Start of the request that
// completed, until every message came; MPI_Request_free at the end.
// -c: the master's receives are the large-count forms of MPI 4 (MPI_Recv_c,
// MPI_Recv_init_c); refused under an MPI of an older standard.
// -d: broken on purpose, for replay's watchdog test: the last worker sends
// one message fewer, so that the master, which makes the same calls as
// ever, waits for ever for the last one (test/replay/divergence.test).
#include "mpi_test_util.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("arrival_order");
  int n = 4, max_sleep_us = 20000, persistent = 0;
  bool ignore_status = false, drop = false, large = false;
  unsigned seed = static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      n = mpitest::parse_count(argv[++a], "-n", 1);
    else if (arg == "-s" && a + 1 < argc)
      seed = static_cast<unsigned>(mpitest::parse_count(argv[++a], "-s", 0));
    else if (arg == "-w" && a + 1 < argc)
      max_sleep_us = mpitest::parse_count(argv[++a], "-w", 0);
    else if (arg == "-p" && a + 1 < argc)
      persistent = mpitest::parse_count(argv[++a], "-p", 1);
    else if (arg == "-c")
      large = true;
    else if (arg == "-i")
      ignore_status = true;
    else if (arg == "-d")
      drop = true;
    else
      mpitest::fail("unknown argument '%s'", arg.c_str());
  }
#if MPI_VERSION < 4
  if (large)
    mpitest::fail("-c needs the large-count functions of MPI 4; this MPI is %d.%d", MPI_VERSION,
                  MPI_SUBVERSION);
#endif
  // The master's receives, plain or large-count.
  auto recv = [&](double *buf, MPI_Status *st) {
#if MPI_VERSION >= 4
    if (large)
      return MPI_Recv_c(buf, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st);
#endif
    return MPI_Recv(buf, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st);
  };
  auto recv_init = [&](double *buf, MPI_Request *req) {
#if MPI_VERSION >= 4
    if (large)
      return MPI_Recv_init_c(buf, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, req);
#endif
    return MPI_Recv_init(buf, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, req);
  };
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  if (size < 2)
    mpitest::fail("needs at least 2 ranks");
  // Message k of worker w carries w + k / 8 + 1 / (w + 3): sums of these
  // round differently in different orders.
  auto value = [](int w, int k) { return w + k / 8.0 + 1.0 / (w + 3); };
  if (rank != 0) {
    std::mt19937 gen(seed * 7919u + static_cast<unsigned>(rank));
    std::uniform_int_distribution<int> sleep_us(0, max_sleep_us);
    for (int k = 0; k < n - (drop && rank == size - 1 ? 1 : 0); ++k) {
      usleep(static_cast<useconds_t>(sleep_us(gen)));
      double msg[2] = {static_cast<double>(rank), value(rank, k)};
      MPI_Send(msg, 2, MPI_DOUBLE, 0, 10 + k % 3, MPI_COMM_WORLD);
    }
  } else {
    const int total = n * (size - 1);
    std::vector<int> next(static_cast<size_t>(size), 0), order;
    double sum = 0, exact = 0;
    // Message k of worker w. With one receive outstanding at a time, each
    // worker's messages arrive in sending order (MPI's non-overtaking
    // rule); with several (-p 2), MPI_Waitany may return a later one
    // first, so there each must arrive once.
    std::vector<std::vector<bool>> seen(static_cast<size_t>(size),
                                        std::vector<bool>(static_cast<size_t>(n), false));
    auto take = [&](int m, const double *msg, const MPI_Status &st) {
      const int w = static_cast<int>(msg[0]);
      if (w < 1 || w >= size)
        mpitest::fail("message %d came from rank %d", m, w);
      const long k = std::lround((msg[1] - w - 1.0 / (w + 3)) * 8);
      if (k < 0 || k >= n || msg[1] != value(w, static_cast<int>(k)) ||
          seen[static_cast<size_t>(w)][static_cast<size_t>(k)])
        mpitest::fail("message %d: payload %a from rank %d is no message it sent or came twice",
                      m, msg[1], w);
      seen[static_cast<size_t>(w)][static_cast<size_t>(k)] = true;
      if (persistent <= 1 && k != next[w])
        mpitest::fail("message %d of rank %d out of order", next[w], w);
      if (!ignore_status && (st.MPI_SOURCE != w || st.MPI_TAG != 10 + static_cast<int>(k) % 3))
        mpitest::fail("message %d: status says source %d tag %d, payload rank %d", m,
                      st.MPI_SOURCE, st.MPI_TAG, w);
      ++next[w];
      order.push_back(w);
      sum += msg[1];
    };
    if (persistent == 0) {
      for (int m = 0; m < total; ++m) {
        double msg[2];
        MPI_Status st;
        recv(msg, ignore_status ? MPI_STATUS_IGNORE : &st);
        take(m, msg, st);
      }
    } else {
      const int nreq = persistent;
      std::vector<double> buf(2 * static_cast<size_t>(nreq));
      std::vector<MPI_Request> req(static_cast<size_t>(nreq));
      for (int r = 0; r < nreq; ++r)
        recv_init(&buf[2 * static_cast<size_t>(r)], &req[static_cast<size_t>(r)]);
      MPI_Status st;
      MPI_Status *stp = ignore_status ? MPI_STATUS_IGNORE : &st;
      if (nreq == 1) {
        for (int m = 0; m < total; ++m) {
          MPI_Start(&req[0]);
          MPI_Wait(&req[0], stp);
          take(m, &buf[0], st);
        }
      } else {
        const int first = std::min(nreq, total);
        MPI_Startall(first, req.data());
        int started = first;
        for (int m = 0; m < total; ++m) {
          int index = MPI_UNDEFINED;
          MPI_Waitany(first, req.data(), &index, stp);
          if (index < 0 || index >= first)
            mpitest::fail("MPI_Waitany returned index %d", index);
          take(m, &buf[2 * static_cast<size_t>(index)], st);
          if (started < total) {
            MPI_Start(&req[static_cast<size_t>(index)]);
            ++started;
          }
        }
      }
      for (MPI_Request &r : req) {
        if (r == MPI_REQUEST_NULL)
          mpitest::fail("a completed persistent request became MPI_REQUEST_NULL");
        MPI_Request_free(&r);
      }
    }
    for (int w = 1; w < size; ++w)
      for (int k = 0; k < n; ++k)
        exact += value(w, k);
    if (!mpitest::close_to(sum, exact, 1e-12))
      mpitest::fail("sum %.17g, expected %.17g", sum, exact);
    std::string line = "arrival:";
    for (int w : order)
      line += " " + std::to_string(w);
    std::printf("%s\nsum: %a\n", line.c_str(), sum);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
