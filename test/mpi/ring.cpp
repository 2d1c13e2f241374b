// ring: two tokens per rank travel around the ring of MPI_COMM_WORLD.
//
// Each iteration passes one token to the right with MPI_Sendrecv (send to
// rank+1, receive from rank-1, modulo the number of ranks) and the other to
// the left with MPI_Irecv/MPI_Isend/MPI_Waitall.  A rank that receives a
// token mixes its own rank into it before passing it on, so a token that took
// a wrong turn, was dropped or overtaken shows up as a wrong value.  Counts
// and tags are the same on every rank; ranks differ only in their two peers.
//
// Every rank replays the whole ring serially and checks the tokens it holds
// and the statuses of its receives after every iteration.
//
// Usage: ring [-n ITER]   (default: 20 iterations)
// Works for any number of ranks >= 1.
#include "mpi_test_util.h"

#include <string>
#include <vector>

namespace {

enum { TAG_RIGHTWARD = 1, TAG_LEFTWARD = 2 };

const long long MODULUS = 1000003;

// What a rank makes of a token it received.
long long mix(long long token, int rank, int salt) {
  return (token * 31 + rank * 7 + salt) % MODULUS;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("ring");

  int iters = 20;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      iters = mpitest::parse_count(argv[++a], "-n", 0);
    else
      mpitest::fail("unknown argument '%s' (usage: ring [-n ITER])", arg.c_str());
  }

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;

  // The serial replay: the rightward and leftward token held by every rank.
  std::vector<long long> rightward(size), leftward(size);
  for (int r = 0; r < size; ++r) {
    rightward[r] = r;
    leftward[r] = MODULUS - 1 - r;
  }
  long long mine[2] = {rightward[rank], leftward[rank]};

  for (int it = 0; it < iters; ++it) {
    long long got[2] = {-1, -1};
    MPI_Status st[3];
    MPI_Sendrecv(&mine[0], 1, MPI_LONG_LONG, right, TAG_RIGHTWARD, &got[0], 1, MPI_LONG_LONG, left,
                 TAG_RIGHTWARD, MPI_COMM_WORLD, &st[0]);
    CHECK_STATUS(st[0], MPI_LONG_LONG, left, TAG_RIGHTWARD, 1, "rightward token");

    MPI_Request reqs[2];
    MPI_Irecv(&got[1], 1, MPI_LONG_LONG, right, TAG_LEFTWARD, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&mine[1], 1, MPI_LONG_LONG, left, TAG_LEFTWARD, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, &st[1]);
    CHECK_STATUS(st[1], MPI_LONG_LONG, right, TAG_LEFTWARD, 1, "leftward token");

    std::vector<long long> r2(size), l2(size);
    for (int r = 0; r < size; ++r) {
      r2[r] = mix(rightward[(r + size - 1) % size], r, it);
      l2[r] = mix(leftward[(r + 1) % size], r, it + 1);
    }
    rightward.swap(r2);
    leftward.swap(l2);

    mine[0] = mix(got[0], rank, it);
    mine[1] = mix(got[1], rank, it + 1);
    CHECK(mine[0] == rightward[rank] && mine[1] == leftward[rank],
          "iteration %d: tokens %lld/%lld, expected %lld/%lld", it, mine[0], mine[1],
          rightward[rank], leftward[rank]);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
