// The process grid of each Cartesian communicator a rank created, which the
// trace does not store: a reader derives it from the rank's CST, to turn
// Cartesian rank codes (cartesian_offset.h) into ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

struct CartTopology {
  uint64_t comm_id = 0; // user symbolic id u (handle code 2u+2 of kind Comm)
  bool known = false;   // false: creations of this id disagree
  std::vector<int> dims, periods;
};

// One entry per user communicator id that some CST entry creates with a grid:
// MPI_Cart_create (its dims and periods), MPI_Cart_sub of a known grid (the
// kept dimensions), or MPI_Comm_dup / _dup_with_info / _idup /
// _idup_with_info of one (the same grid). Ids are reused after
// MPI_Comm_free, so an id whose grid creations disagree is not `known`.
// Entries that do not decode are skipped. Sorted by comm_id.
std::vector<CartTopology> cart_topologies(const Trace &trace, const std::vector<CstEntry> &cst);

// The grid of user communicator id `comm_id`, or nullptr if none is known.
const CartTopology *find_cart(const std::vector<CartTopology> &carts, uint64_t comm_id);

} // namespace pilgrim
