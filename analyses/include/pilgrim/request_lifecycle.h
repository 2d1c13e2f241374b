// What a call does to the requests of its rank: creates them (MPI_Isend,
// MPI_Irecv, MPI_Ibarrier, MPI_Send_init, ...), starts persistent ones
// (MPI_Start, MPI_Startall), completes them (MPI_Wait*, and MPI_Test* whose
// flag or outcount says so), frees them (MPI_Request_free) or cancels them
// (MPI_Cancel; the request must still be completed). Requests are named by
// their stored handle code (the CallElement's coded->code), which tells a
// rank's requests apart. pilgrim-proxygen (the senders of wildcard
// receives) and pilgrim-export (request lifetimes) read them here.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "pilgrim/decoded_call.h"

namespace pilgrim {

struct RequestEvents {
  // Created by this call (an out Request handle the call creates); not
  // active yet when `persistent` (a *_init call: MPI_Start activates it).
  std::vector<uint64_t> created;
  bool persistent = false;
  std::vector<uint64_t> started;
  // Each completed request with its status (nullptr when ignored).
  std::vector<std::pair<uint64_t, const StatusRef *>> completed;
  std::vector<uint64_t> freed;
  std::vector<uint64_t> cancelled;
  bool empty() const {
    return created.empty() && started.empty() && completed.empty() && freed.empty() &&
           cancelled.empty();
  }
};

// Fills `events` (cleared first) with what `call` does to requests. Null
// requests (MPI_REQUEST_NULL) are left out.
void request_events(const Call &call, RequestEvents &events);

} // namespace pilgrim
