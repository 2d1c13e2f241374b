// particles: a Monte-Carlo-like exchange for order replay (issue 28, after
// the CDC paper's MCB). Every rank posts a receive from each other rank and
// polls them with MPI_Testsome; each particle that arrives is tallied, loses
// a hop and is forwarded, its receive posted again, until every particle
// has run out of hops: finished particles are counted at rank 0 (a wildcard
// receive), which then tells every rank to stop. The tally, a product-sum
// rounded in arrival order, and the count of empty polls change from run to
// run; rank 0 prints the tallies:
//   tally: 0x1.2p+3 0x1.8p+2 ...
// Checks: every particle hops exactly -h times and finishes once.
// Options: -k PARTICLES per rank (4), -h HOPS (6), -s SEED (default: from
// the clock), -w MAX_DELAY_US (2000).
#include "mpi_test_util.h"

#include <ctime>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace {
constexpr int kParticle = 1, kDone = 2, kStop = 3;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("particles");
  int k = 4, hops = 6, max_delay_us = 2000;
  unsigned seed = static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-k" && a + 1 < argc)
      k = mpitest::parse_count(argv[++a], "-k", 1);
    else if (arg == "-h" && a + 1 < argc)
      hops = mpitest::parse_count(argv[++a], "-h", 1);
    else if (arg == "-s" && a + 1 < argc)
      seed = static_cast<unsigned>(mpitest::parse_count(argv[++a], "-s", 0));
    else if (arg == "-w" && a + 1 < argc)
      max_delay_us = mpitest::parse_count(argv[++a], "-w", 0);
    else
      mpitest::fail("unknown argument '%s'", arg.c_str());
  }
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  if (size < 2)
    mpitest::fail("needs at least 2 ranks");
  std::mt19937 gen(seed * 104729u + static_cast<unsigned>(rank));
  std::uniform_int_distribution<int> delay(0, max_delay_us);
  const int total = k * size;
  // Slots: one particle receive per other rank, then rank 0's wildcard
  // receive of finished particles, or another rank's stop receive.
  const int others = size - 1, nslots = others + 1;
  std::vector<MPI_Request> reqs(static_cast<size_t>(nslots), MPI_REQUEST_NULL);
  std::vector<double> bufs(static_cast<size_t>(nslots) * 3);
  auto peer_of = [&](int slot) { return slot < rank ? slot : slot + 1; };
  auto post = [&](int slot) {
    double *b = &bufs[static_cast<size_t>(slot) * 3];
    if (slot < others)
      MPI_Irecv(b, 3, MPI_DOUBLE, peer_of(slot), kParticle, MPI_COMM_WORLD, &reqs[slot]);
    else if (rank == 0)
      MPI_Irecv(b, 3, MPI_DOUBLE, MPI_ANY_SOURCE, kDone, MPI_COMM_WORLD, &reqs[slot]);
    else
      MPI_Irecv(b, 3, MPI_DOUBLE, 0, kStop, MPI_COMM_WORLD, &reqs[slot]);
  };
  for (int s = 0; s < nslots; ++s)
    post(s);
  std::vector<MPI_Request> sends;
  std::vector<double> outbox; // kept alive until the sends complete
  outbox.reserve(static_cast<size_t>(total * (hops + 2)) * 3 + 3 * static_cast<size_t>(size));
  auto send = [&](double id, double left, double value, int dest, int tag) {
    outbox.insert(outbox.end(), {id, left, value});
    sends.emplace_back();
    MPI_Isend(&outbox[outbox.size() - 3], 3, MPI_DOUBLE, dest, tag, MPI_COMM_WORLD,
              &sends.back());
  };
  // The route of particle `id` with `left` hops: fixed, whatever the order.
  auto route = [&](int id, int left) {
    const int r = (id * 7 + left * 13 + rank) % others;
    return r < rank ? r : r + 1;
  };
  for (int p = 0; p < k; ++p) {
    const int id = rank * k + p;
    send(id, hops, 1.0 + id / 16.0, route(id, hops), kParticle);
  }
  double tally = 0;
  long arrivals = 0, finished_here = 0, done = 0;
  bool stop = false;
  std::vector<int> idx(static_cast<size_t>(nslots));
  std::vector<MPI_Status> st(static_cast<size_t>(nslots));
  while (!stop) {
    int n = 0;
    MPI_Testsome(nslots, reqs.data(), &n, idx.data(), st.data());
    if (n == 0 || n == MPI_UNDEFINED) {
      usleep(static_cast<useconds_t>(delay(gen) / 8));
      continue;
    }
    for (int j = 0; j < n; ++j) {
      const int s = idx[static_cast<size_t>(j)];
      const double *b = &bufs[static_cast<size_t>(s) * 3];
      if (s < others) {
        ++arrivals;
        tally = tally * 1.0009765625 + b[2] / 3.0;
        const int id = static_cast<int>(b[0]), left = static_cast<int>(b[1]) - 1;
        if (left == 0) {
          ++finished_here;
          if (rank == 0)
            ++done;
          else
            send(id, 0, 0, 0, kDone);
        } else {
          send(id, left, b[2] * 1.25 + rank, route(id, left), kParticle);
        }
        post(s);
      } else if (rank == 0) {
        ++done;
        post(s);
      } else {
        stop = true;
      }
      usleep(static_cast<useconds_t>(delay(gen)));
    }
    if (rank == 0 && done == total) {
      for (int r = 1; r < size; ++r)
        send(0, 0, 0, r, kStop);
      stop = true;
    }
  }
  for (int s = 0; s < nslots; ++s)
    if (reqs[static_cast<size_t>(s)] != MPI_REQUEST_NULL) {
      MPI_Cancel(&reqs[static_cast<size_t>(s)]);
      MPI_Wait(&reqs[static_cast<size_t>(s)], MPI_STATUS_IGNORE);
    }
  MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  long counts[2] = {arrivals, finished_here}, sums[2] = {0, 0};
  MPI_Allreduce(counts, sums, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (sums[0] != static_cast<long>(total) * hops || sums[1] != total)
    mpitest::fail("%ld arrivals and %ld finished, expected %ld and %d", sums[0], sums[1],
                  static_cast<long>(total) * hops, total);
  std::vector<double> tallies(static_cast<size_t>(size));
  MPI_Gather(&tally, 1, MPI_DOUBLE, tallies.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::string line = "tally:";
    char t[64];
    for (double v : tallies) {
      std::snprintf(t, sizeof t, " %a", v);
      line += t;
    }
    std::printf("%s\n", line.c_str());
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
