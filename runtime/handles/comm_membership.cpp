#include "comm_membership.h"

#include "pilgrim/group_hash.h"

#include <vector>

namespace pilgrim::rt {
namespace {

uint32_t hash_of(MPI_Group g, MPI_Group world) {
  int n = 0;
  PMPI_Group_size(g, &n);
  std::vector<int> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    in[static_cast<size_t>(i)] = i;
  if (n > 0)
    PMPI_Group_translate_ranks(g, n, in.data(), world, out.data());
  GroupHash h(static_cast<uint32_t>(n));
  for (int w : out)
    h.add(w == MPI_UNDEFINED || w < 0 ? kOutsideWorld : static_cast<uint32_t>(w));
  return h.value();
}

} // namespace

GroupHashes group_hashes(MPI_Comm comm) {
  GroupHashes out;
  if (comm == MPI_COMM_NULL)
    return out;
  MPI_Group world = MPI_GROUP_NULL, g = MPI_GROUP_NULL;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Comm_group(comm, &g);
  out.local = hash_of(g, world);
  PMPI_Group_free(&g);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    PMPI_Comm_remote_group(comm, &g);
    out.remote = hash_of(g, world);
    PMPI_Group_free(&g);
  }
  PMPI_Group_free(&world);
  return out;
}

} // namespace pilgrim::rt
