// many_comms: more communicators alive at once than the tracer's id bitmap
// holds (1024), so that ids come from beyond it.
//
//  1. Rank r keeps N + 5r dups of MPI_COMM_SELF alive (N = 1100): the
//     ranks have made different numbers of creations.
//  2. An MPI_Comm_idup of MPI_COMM_WORLD in flight while every rank but the
//     last makes 12 more self dups; then MPI_Wait and a reduction on it.
//  3. 4 dups of MPI_COMM_WORLD and a split of it by parity, whose ids the
//     members must agree on; each used.
//  4. Every third self dup freed, in two sweeps; 40 more made (ids freed
//     below 1024 come back); everything freed.
// Each communicator is checked (size, rank, a reduction). Runs with any
// number of ranks (2 or more for the agreements to have several members).
#include "mpi_test_util.h"

#include <vector>

namespace {

const int N = 1100, kWorldDups = 4, kInFlight = 12, kMore = 40;

MPI_Comm self_dup(int i) {
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_SELF, &c);
  CHECK(mpitest::comm_size(c) == 1 && mpitest::comm_rank(c) == 0, "self dup %d: size %d rank %d", i,
        mpitest::comm_size(c), mpitest::comm_rank(c));
  return c;
}

void check_sum(MPI_Comm c, int size, const char *what) {
  int sum = 0, one = 1;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, c);
  CHECK(sum == size, "%s: sum %d, expected %d", what, sum, size);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("many_comms");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  const int size = mpitest::comm_size(MPI_COMM_WORLD);

  std::vector<MPI_Comm> self;
  for (int i = 0; i < N + 5 * rank; ++i)
    self.push_back(self_dup(i));

  MPI_Comm idup = MPI_COMM_NULL;
  MPI_Request req = MPI_REQUEST_NULL;
  MPI_Comm_idup(MPI_COMM_WORLD, &idup, &req);
  if (rank != size - 1)
    for (int i = 0; i < kInFlight; ++i)
      self.push_back(self_dup(i));
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check_sum(idup, size, "idup");

  std::vector<MPI_Comm> world(kWorldDups, MPI_COMM_NULL);
  for (int i = 0; i < kWorldDups; ++i) {
    MPI_Comm_dup(MPI_COMM_WORLD, &world[i]);
    check_sum(world[i], size, "world dup");
  }
  MPI_Comm half = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  check_sum(half, (size + 1 - rank % 2) / 2, "split");

  for (size_t i = 0; i < self.size(); i += 3)
    MPI_Comm_free(&self[i]);
  for (size_t i = self.size(); i-- > 0;)
    if (i % 3 == 1)
      MPI_Comm_free(&self[i]);
  for (int i = 0; i < kMore; ++i)
    self.push_back(self_dup(i));

  MPI_Comm_free(&idup);
  MPI_Comm_free(&half);
  for (MPI_Comm &c : world)
    MPI_Comm_free(&c);
  for (MPI_Comm &c : self)
    if (c != MPI_COMM_NULL)
      MPI_Comm_free(&c);
  for (MPI_Comm c : self)
    CHECK(c == MPI_COMM_NULL, "a self dup was not freed");

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
