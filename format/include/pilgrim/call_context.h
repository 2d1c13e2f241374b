// What a reader knows about the rank that made a call, to turn relative
// ranks back into absolute ones.
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/cart_topology.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

// The caller's rank in the group of the window with user symbolic id
// `win_id` (handle code 2u+2 of kind Win); -1 when unknown or ambiguous.
struct WindowRank {
  uint64_t win_id = 0;
  int64_t rank = -1;
};

struct CallContext {
  int64_t world_rank = -1;                          // caller's rank in MPI_COMM_WORLD; -1 unknown
  const std::vector<CommInfo> *comms = nullptr;     // the caller's COMMS table
  const std::vector<WindowRank> *windows = nullptr; // window_ranks(), sorted by win_id
  const std::vector<CartTopology> *carts = nullptr; // cart_topologies(), sorted by comm_id

  // The caller's rank in the communicator with this handle code: WORLD ->
  // world_rank, SELF -> 0, user id u -> the COMMS entry with comm_id u.
  // -1 when unknown.
  int64_t rank_in_comm(uint64_t handle_code) const;
  // The caller's rank in the window with this handle code: user id u -> the
  // `windows` entry with win_id u. -1 when unknown.
  int64_t rank_in_window(uint64_t handle_code) const;
};

// The caller's rank in each window's group, which the trace does not store:
// a window's group is that of the communicator it was created over, so for
// every CST entry of a call that creates windows (a Handle parameter of kind
// Win and action Create) each created user window id gets the caller's rank
// in the call's first Comm parameter (rank_in_comm with `ctx`). An id whose
// creations disagree (ids are reused after MPI_Win_free), or whose creating
// call names no known communicator, gets -1. Entries that do not decode are
// skipped. Sorted by win_id, for CallContext::windows.
std::vector<WindowRank> window_ranks(const Trace &trace, const std::vector<CstEntry> &cst,
                                     const CallContext &ctx);

// The caller's rank in the communicator or window that rank-valued
// parameter `param` of `call` refers to (a Rank: ParamInfo::ref; a Status:
// the call's first communicator parameter). -1 when unknown (a group, an
// unknown communicator or window, no reference).
int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx);

// The grid of the communicator that rank-valued parameter `param` refers to
// (as for caller_rank_for), nullptr when it has none or it is unknown.
const CartTopology *cart_for(const DecodedCall &call, size_t param, const CallContext &ctx);

// The absolute rank of a rank code given the caller's rank (-1 unknown) and,
// for a Cartesian code, the communicator's grid. Returns false for sentinels
// and for relative or Cartesian codes with an unknown base or grid.
bool absolute_rank(uint64_t rank_code, int64_t caller_rank, int64_t &rank,
                   const CartTopology *cart = nullptr);

} // namespace pilgrim
