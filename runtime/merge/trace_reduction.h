// The cross-rank merge at MPI_Finalize: the ranks' MergeStates are folded
// pairwise up a binary tree over a private communicator in ceil(log2 P)
// rounds (round k: rank r with r mod 2^(k+1) == 2^k sends its state to
// r - 2^k and is done). Each rank holds at most its subtree's merged state,
// whose size follows the distinct signatures and grammars, never P.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <optional>

#include "merge_state.h"

namespace pilgrim::rt {

struct ReductionStats {
  double merge_seconds = 0;   // this rank: receiving and absorbing
  uint64_t bytes_received = 0;
};

// Rank 0 of `comm` gets the finished MergedTrace; the others get nothing.
std::optional<MergedTrace> reduce_to_root(MPI_Comm comm, MergeState state, ReductionStats *stats);

}  // namespace pilgrim::rt
