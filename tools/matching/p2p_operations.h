// The point-to-point operations of a trace, collected rank by rank before
// they are matched (message_matching.cpp): every send and receive with its
// channel, tag, size and the calls that posted and completed it, found by
// following requests from their creation to their completion
// (docs/CHECK.md, "Matching semantics").
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "comm_resolver.h"
#include "message_matching.h"

namespace pilgrim {

struct P2pOp {
  CallPlace post;     // the call that posted it (MPI_Isend, MPI_Start, MPI_Mrecv, ...)
  CallPlace complete; // the call that completed it; valid when completed
  uint64_t order = 0; // its place in the rank's posting order (MPI_Mprobe's for MPI_Mrecv)
  const char *function = "";
  uint64_t comm = kCommUnknown;
  int64_t peer = -1;         // the other side, as a world rank; -1 unknown
  int64_t peer_in_comm = -1; // the same, as the call named it (rank in the peer group)
  bool wildcard = false;     // a receive from MPI_ANY_SOURCE
  bool any_tag = false;
  int64_t tag = 0;
  int64_t bytes = -1;     // send: its size; receive: its buffer's capacity; -1 unknown
  bool completed = false; // by a completion call (or at once, blocking)
  bool freed = false;     // its request was freed while active: it completes unseen
  bool cancelled = false; // MPI_Cancel'led (and not revived by MPI_Test_cancelled false)
};

// What a rank's walk leaves: its operations in posting order, and what it
// found on its own (requests never completed or freed, unresolvable peers).
struct RankOperations {
  std::vector<P2pOp> sends;
  std::vector<P2pOp> recvs;
  std::vector<MatchFinding> findings;
};

class TraceWalkObserver;

// Walks rank `rank`'s calls; `observe` (may be nullptr) sees each call after
// the walk resolved its communicators.
RankOperations collect_operations(const reader::TraceFile &trace, const CommDirectory &comms,
                                  uint32_t rank, bool full_check,
                                  TraceWalkObserver *observe = nullptr);

// What else a check learns from the same walk (collectives, handles).
class TraceWalkObserver {
public:
  virtual ~TraceWalkObserver() = default;
  virtual void call(const Call &call, CallPlace where, const CommResolver &comms) = 0;
  virtual void rank_done(uint32_t rank) = 0;
};

} // namespace pilgrim
