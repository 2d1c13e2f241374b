// One rank's live requests while its events are written: what each request
// started (an MpiIsend, an MpiIrecvRequest, a nonblocking collective, a
// persistent send or receive), so that the call completing it writes the
// matching completion event with the same OTF2 request id. Ids are unique
// per rank: a counter, since the trace's symbolic ids are reused.
#pragma once

#include <cstdint>
#include <otf2/OTF2_Events.h>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <unordered_map>

namespace pilgrim::exporter {

struct LiveRequest {
  enum class Kind { Send, Recv, Collective };
  Kind kind = Kind::Send;
  bool persistent = false;
  bool active = false;  // started and not yet completed
  uint64_t otf2_id = 0; // the id of its latest start
  uint64_t posted = 0;  // the call that posted it (its latest MPI_Start)
  OTF2_CommRef comm = OTF2_UNDEFINED_COMM;
  int64_t peer = -1;     // rank in comm: dest, or source (-1 MPI_ANY_SOURCE / unknown)
  int64_t tag = -1;      // -1: MPI_ANY_TAG
  uint64_t bytes = 0;    // send size, receive capacity, or collective bytes sent
  uint64_t received = 0; // collective bytes received
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
  uint32_t root = OTF2_COLLECTIVE_ROOT_NONE;
};

class RequestTable {
public:
  // `request` (the trace's symbolic id) now stands for `r`, started at call
  // `posted` (persistent requests: started later, by start()). Returns the
  // OTF2 id.
  uint64_t create(uint64_t request, LiveRequest r, uint64_t posted);
  // MPI_Start of a persistent request; nullptr if unknown. Gives it a new id.
  LiveRequest *start(uint64_t request, uint64_t posted);
  LiveRequest *find(uint64_t request);
  // The request completed (a persistent one stays, inactive) or was freed.
  void complete(uint64_t request);
  void erase(uint64_t request) { live_.erase(request); }

private:
  std::unordered_map<uint64_t, LiveRequest> live_;
  uint64_t next_id_ = 0;
};

} // namespace pilgrim::exporter
