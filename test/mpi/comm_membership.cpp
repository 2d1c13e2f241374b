// comm_membership: communicators that share an id, whose members a reader
// lists as world ranks from the trace (docs/FORMAT.md §7.6.1).
//
//   1. MPI_Comm_split by blocks (color rank / 2): comm#0 is {0, 1}, {2, 3},
//      ...; freed;
//   2. MPI_Comm_split by parity with reversed keys (color rank % 2, key
//      -rank): comm#0 again, now the even ranks and the odd ranks, each
//      highest first: a rank's partners differ from step 1's, so only the
//      groups tell the communicators with id 0 apart;
//   3. MPI_Intercomm_create between the two parity groups (local leader:
//      rank 0 of each, the highest world rank of its parity);
//   4. MPI_Intercomm_merge of it.
// Each step checks its members with MPI_Group_translate_ranks.
//
// Usage: comm_membership   (an even number of ranks, 4 or more)
#include "mpi_test_util.h"

#include <vector>

namespace {

// The world ranks of comm's (remote) group, in rank order.
std::vector<int> world_ranks(MPI_Comm comm, bool remote) {
  MPI_Group world, g;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  if (remote)
    MPI_Comm_remote_group(comm, &g);
  else
    MPI_Comm_group(comm, &g);
  int n = 0;
  MPI_Group_size(g, &n);
  std::vector<int> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    in[static_cast<size_t>(i)] = i;
  MPI_Group_translate_ranks(g, n, in.data(), world, out.data());
  MPI_Group_free(&g);
  MPI_Group_free(&world);
  return out;
}

// The world ranks of parity p, highest first.
std::vector<int> parity(int p, int size) {
  std::vector<int> v;
  for (int r = size - 2 + p; r >= 0; r -= 2)
    v.push_back(r);
  return v;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("comm_membership");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(size >= 4 && size % 2 == 0, "needs an even number of ranks, 4 or more");

  MPI_Comm blocks;
  MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &blocks);
  const std::vector<int> pair = {rank / 2 * 2, rank / 2 * 2 + 1};
  CHECK(world_ranks(blocks, false) == pair, "blocks: wrong members");
  MPI_Comm_free(&blocks);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  CHECK(world_ranks(half, false) == parity(rank % 2, size), "parity: wrong members");

  MPI_Comm inter;
  const int remote_leader = size - 1 - rank % 2; // the other parity's highest rank
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, remote_leader, 7, &inter);
  CHECK(world_ranks(inter, false) == parity(rank % 2, size), "inter: wrong local group");
  CHECK(world_ranks(inter, true) == parity(1 - rank % 2, size), "inter: wrong remote group");

  MPI_Comm merged;
  MPI_Intercomm_merge(inter, rank % 2, &merged); // the even ranks first
  std::vector<int> all = parity(0, size);
  for (int r : parity(1, size))
    all.push_back(r);
  CHECK(world_ranks(merged, false) == all, "merged: wrong members");

  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
