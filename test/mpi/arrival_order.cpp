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
// -d: broken on purpose, for replay's watchdog test: the last worker sends
// one message fewer, so that the master, which makes the same calls as
// ever, waits for ever for the last one (test/replay/divergence.test).
#include "mpi_test_util.h"

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
  int n = 4, max_sleep_us = 20000;
  bool ignore_status = false, drop = false;
  unsigned seed = static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      n = mpitest::parse_count(argv[++a], "-n", 1);
    else if (arg == "-s" && a + 1 < argc)
      seed = static_cast<unsigned>(mpitest::parse_count(argv[++a], "-s", 0));
    else if (arg == "-w" && a + 1 < argc)
      max_sleep_us = mpitest::parse_count(argv[++a], "-w", 0);
    else if (arg == "-i")
      ignore_status = true;
    else if (arg == "-d")
      drop = true;
    else
      mpitest::fail("unknown argument '%s'", arg.c_str());
  }
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
    for (int m = 0; m < total; ++m) {
      double msg[2];
      MPI_Status st;
      MPI_Recv(msg, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
               ignore_status ? MPI_STATUS_IGNORE : &st);
      const int w = static_cast<int>(msg[0]);
      if (w < 1 || w >= size)
        mpitest::fail("message %d came from rank %d", m, w);
      if (!ignore_status && (st.MPI_SOURCE != w || st.MPI_TAG != 10 + next[w] % 3))
        mpitest::fail("message %d: status says source %d tag %d, payload rank %d", m,
                      st.MPI_SOURCE, st.MPI_TAG, w);
      if (msg[1] != value(w, next[w]))
        mpitest::fail("message %d of rank %d out of order", next[w], w);
      ++next[w];
      order.push_back(w);
      sum += msg[1];
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
