// Who sends what to whom in one call, for the communication matrix
// (docs/STATS.md, "Communication matrix"): a point-to-point send to its
// destination, and a collective by its logical pattern (root to all, all to
// root, all to all, prefix), never by an MPI's internal algorithm. Each
// message is counted once, at its sender's call.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "matrix_model.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim::stats {

// One message of the call's rank to `peer`, a rank of the group the call's
// peers are in (the remote group of an intercommunicator, the communicator
// otherwise); -1 when the call does not say which rank it is.
struct Flow {
  int64_t peer = -1;
  uint64_t bytes = 0;
  bool sized = true; // false: the size is unknown (bytes 0)
};

// Where the caller stands in the call's communicator.
struct CommPosition {
  int64_t caller = -1; // the caller's rank in its (local) group; -1 unknown
  int64_t peers = 0;   // size of the peer group (the remote group of an intercommunicator)
  bool inter = false;
};

struct CallFlows {
  enum class Action {
    None,      // no message (not a send or a collective, or one with no message here)
    Count,     // `flows` are this call's messages
    Persist,   // `flows` are the messages of each MPI_Start of `request`
    Start,     // MPI_Start/MPI_Startall: the persistent requests `started` send
    Uncounted, // a collective without a logical pattern here (neighbour collectives)
  };
  Action action = Action::None;
  MatrixKind kind = MatrixKind::PointToPoint;
  std::vector<Flow> flows;
  uint64_t request = 0;          // Persist: the request's user id
  std::vector<uint64_t> started; // Start: the requests' user ids
};

// Whether `call` sends or takes part in a collective at all: only then
// does it need its communicator (call_flows' `where`).
bool has_flows(const Call &call);
// The messages `call` sends from where it stands in its communicator.
CallFlows call_flows(const Call &call, const CommPosition &where);

} // namespace pilgrim::stats
