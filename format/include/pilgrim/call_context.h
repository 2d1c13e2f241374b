// What a reader knows about the rank that made a call, to turn relative
// ranks back into absolute ones.
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

struct CallContext {
  int64_t world_rank = -1;                      // caller's rank in MPI_COMM_WORLD; -1 unknown
  const std::vector<CommInfo> *comms = nullptr; // the caller's COMMS table

  // The caller's rank in the communicator with this handle code: WORLD ->
  // world_rank, SELF -> 0, user id u -> the COMMS entry with comm_id u.
  // -1 when unknown.
  int64_t rank_in_comm(uint64_t handle_code) const;
};

// The caller's rank in the communicator that rank-valued parameter `param`
// of `call` refers to (a Rank: ParamInfo::ref; a Status: the call's first
// communicator parameter). -1 when unknown (a group, an unknown
// communicator, no reference).
int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx);

// The absolute rank of a rank code given the caller's rank (-1 unknown).
// Returns false for sentinels and for relative codes with an unknown base.
bool absolute_rank(uint64_t rank_code, int64_t caller_rank, int64_t &rank);

} // namespace pilgrim
