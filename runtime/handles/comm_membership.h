// Which world ranks a communicator's groups hold, as the hashes a trace
// stores (pilgrim/group_hash.h): computed once per created communicator,
// without communication (MPI_Group_translate_ranks against MPI_COMM_WORLD).
#pragma once

#include <mpi.h>

#include <cstdint>

namespace pilgrim::rt {

struct GroupHashes {
  uint32_t local = 0;
  uint32_t remote = 0; // 0 for an intracommunicator
};

GroupHashes group_hashes(MPI_Comm comm);

} // namespace pilgrim::rt
