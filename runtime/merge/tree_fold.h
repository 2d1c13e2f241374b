// The tracer's fold of one value per rank up a binary tree to rank 0, at
// MPI_Finalize, on its private communicator: ceil(log2 P) rounds (round k:
// rank r with r mod 2^(k+1) == 2^k sends its value to r - 2^k and is done),
// so each rank holds at most its subtree's value, never P of them. The
// cross-rank merge (trace_reduction.h) and the call sites' agreement
// (call_sites.h) use it, each with a tag of its own.
#pragma once

#include <mpi.h>

#include <functional>
#include <string>

namespace pilgrim::rt {

// `serialize()`: this rank's value (with its children's absorbed) as bytes,
// called once on every rank but 0. `absorb(bytes)`: adds a child's value to
// this rank's. Returns true on rank 0, which then holds the whole fold.
// Messages of any length (longer than an int count goes in pieces).
bool fold_to_root(MPI_Comm comm, int tag, const std::function<std::string()> &serialize,
                  const std::function<void(const std::string &)> &absorb);

} // namespace pilgrim::rt
