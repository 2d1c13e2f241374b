// same_tag: the CDC paper's Figure 3 case for order replay (issue 28): rank
// 0 posts two receives that the same messages can match (MPI_ANY_SOURCE,
// one tag) and completes them with MPI_Waitany, for -n rounds; the other
// ranks each send one message a round after a random sleep. Which request
// completes first, and with whose message, is the application-level order,
// which (sender, tag) alone does not name. Rank 0 prints it:
//   order: 0<2 1<1 | 1<3 0<1 ...   (index<sender per completion, | between rounds)
// Checks: every message arrives once. Options: -n ROUNDS (3), -s SEED
// (default: from the clock), -w MAX_SLEEP_US (10000).
#include "mpi_test_util.h"

#include <ctime>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("same_tag");
  int rounds = 3, max_sleep_us = 10000;
  unsigned seed = static_cast<unsigned>(time(nullptr)) ^ static_cast<unsigned>(getpid());
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      rounds = mpitest::parse_count(argv[++a], "-n", 1);
    else if (arg == "-s" && a + 1 < argc)
      seed = static_cast<unsigned>(mpitest::parse_count(argv[++a], "-s", 0));
    else if (arg == "-w" && a + 1 < argc)
      max_sleep_us = mpitest::parse_count(argv[++a], "-w", 0);
    else
      mpitest::fail("unknown argument '%s'", arg.c_str());
  }
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  if (size < 3)
    mpitest::fail("needs at least 3 ranks");
  std::mt19937 gen(seed * 31u + static_cast<unsigned>(rank));
  std::uniform_int_distribution<int> sleep_us(0, max_sleep_us);
  const int tag = 5;
  if (rank != 0) {
    for (int r = 0; r < rounds; ++r) {
      usleep(static_cast<useconds_t>(sleep_us(gen)));
      const int msg[2] = {rank, r};
      MPI_Send(msg, 2, MPI_INT, 0, tag, MPI_COMM_WORLD);
    }
  } else {
    std::string line = "order:";
    std::vector<int> seen(static_cast<size_t>(size) * static_cast<size_t>(rounds), 0);
    const int per_round = size - 1;
    for (int r = 0; r < rounds; ++r) {
      if (r)
        line += " |";
      // Two receives at a time, the same sender and tag for both.
      int bufs[2][2];
      MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
      int posted = 0, got = 0;
      while (got < per_round) {
        for (int i = 0; i < 2 && posted < per_round; ++i)
          if (reqs[i] == MPI_REQUEST_NULL) {
            MPI_Irecv(bufs[i], 2, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &reqs[i]);
            ++posted;
          }
        int index = MPI_UNDEFINED;
        MPI_Status st;
        MPI_Waitany(2, reqs, &index, &st);
        if (index < 0 || index > 1)
          mpitest::fail("MPI_Waitany returned index %d", index);
        const int who = bufs[index][0], round = bufs[index][1];
        if (who != st.MPI_SOURCE || who < 1 || who >= size || round < 0 || round >= rounds ||
            seen[static_cast<size_t>(round * size + who)]++)
          mpitest::fail("message %d/%d from %d came twice or wrong", who, round, st.MPI_SOURCE);
        line += " " + std::to_string(index) + "<" + std::to_string(who);
        ++got;
      }
    }
    for (int r = 0; r < rounds; ++r)
      for (int w = 1; w < size; ++w)
        if (seen[static_cast<size_t>(r * size + w)] != 1)
          mpitest::fail("round %d: rank %d's message did not arrive", r, w);
    std::printf("%s\n", line.c_str());
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
