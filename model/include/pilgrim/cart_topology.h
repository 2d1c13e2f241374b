// The process grid of a Cartesian communicator, which the trace does not
// store: a reader derives it, along a rank's walk, from the call that
// created the communicator (docs/FORMAT.md §8.3, "Which grid applies"), to
// turn Cartesian rank codes (cartesian_offset.h) into ranks.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pilgrim/signature_decoder.h"

namespace pilgrim {

struct CartTopology {
  std::vector<int> dims, periods;
  friend bool operator==(const CartTopology &a, const CartTopology &b) {
    return a.dims == b.dims && a.periods == b.periods;
  }
};

// A grid shared by every epoch and request that has it (nullptr: none).
using CartGrid = std::shared_ptr<const CartTopology>;

// Whether `call` passes a grid on from a parent communicator (MPI_Cart_sub,
// MPI_Comm_dup, _dup_with_info, _idup, _idup_with_info); `parent_code` is
// the handle code of its `comm` parameter.
bool inherits_grid(const DecodedCall &call, uint64_t &parent_code);

// The grid of the communicator `call` creates, given `parent`, the grid its
// parent communicator has at this call (when inherits_grid): MPI_Cart_create
// its `dims` and `periods`; MPI_Cart_sub the parent's dimensions whose
// `remain_dims` entry is nonzero; a dup or idup the parent's grid; any other
// creation, or a parent without a known grid, none (nullptr).
CartGrid created_grid(const DecodedCall &call, const CartGrid &parent);

} // namespace pilgrim
