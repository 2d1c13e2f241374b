// What a reader knows, at one call of a rank's walk, to turn relative and
// Cartesian rank codes back into ranks (docs/FORMAT.md §8.3, "Where relative
// ranks are resolved").
#pragma once

#include <cstdint>

#include "pilgrim/cart_topology.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

class CreationTracker;

// What a relative or Cartesian rank code is relative to.
struct RankBase {
  int64_t rank = -1;                  // the caller's rank, -1 unknown
  const CartTopology *cart = nullptr; // the communicator's grid, nullptr none or unknown
};

struct CallContext {
  int64_t world_rank = -1; // caller's rank in MPI_COMM_WORLD; -1 unknown
  // The trace's format version: it decides what the source in the status of
  // a completion call (MPI_Wait, ...) is relative to.
  uint16_t format_version = kFormatVersion;
  // What the rank's creations before this call make apply (user
  // communicators, windows, requests); nullptr: only MPI_COMM_WORLD and
  // MPI_COMM_SELF are known.
  const CreationTracker *state = nullptr;

  // The caller's rank in, and the grid of, the communicator with this
  // handle code: WORLD -> world_rank, SELF -> 0, a user id -> the epoch that
  // applies at this call. Unknown: {-1, nullptr}.
  RankBase comm(uint64_t handle_code) const;
  int64_t rank_in_comm(uint64_t handle_code) const { return comm(handle_code).rank; }
  // The caller's rank in the window with this handle code; -1 when unknown.
  int64_t rank_in_window(uint64_t handle_code) const;
  // What the status source of a completion of the request with this handle
  // code is relative to (format version 3: the request's communicator as it
  // was when the request was created). Unknown: {-1, nullptr}.
  RankBase request(uint64_t handle_code) const;
  // The size (MPI_Type_size) of the datatype with this handle code: a
  // predefined one's (datatype_sizes.h), a user one's as its layout record
  // stated it (datatype_layouts.h; traces of version 5); -2 for
  // MPI_DATATYPE_NULL (size 0, valid only for zero counts); -1 unknown.
  int64_t datatype_size(uint64_t handle_code) const;
};

// What element `element` of rank-valued parameter `param` of `call` is
// relative to: a Rank's `ref` (a communicator or window; a group is
// unknown); a Status's source the call's first communicator parameter, or,
// in a call without one, the request the status belongs to (version 3) or
// MPI_COMM_WORLD (versions 1 and 2).
RankBase base_for(const DecodedCall &call, size_t param, size_t element, const CallContext &ctx);

// The request that status `element` of Status parameter `param` belongs to,
// in a call that completes requests (MPI_Wait*, MPI_Test*,
// MPI_Request_get_status): status i belongs to request i, or to request
// index[i] when the Status's `ref` names the out parameter saying which
// completed. nullptr when the call has no request parameter or the status
// belongs to none.
const DecodedElement *status_request(const DecodedCall &call, size_t param, size_t element);

// The caller's rank for `param` (base_for its first element); -1 unknown.
int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx);

// The absolute rank of a rank code given the caller's rank (-1 unknown) and,
// for a Cartesian code, the communicator's grid. Returns false for sentinels
// and for relative or Cartesian codes with an unknown base or grid.
bool absolute_rank(uint64_t rank_code, int64_t caller_rank, int64_t &rank,
                   const CartTopology *cart = nullptr);

} // namespace pilgrim
