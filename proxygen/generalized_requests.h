// Polls that cannot succeed in the proxy either: an MPI_Test (Testall,
// Testany, MPI_Request_get_status) of generalized requests only. Such a
// request completes when the program calls MPI_Grequest_complete, a call of
// the trace that the proxy makes at the same point of the rank's calls, so
// a poll that found nothing in the traced run finds nothing in the proxy:
// it is replayed as the call it was, where the polls of a race are left to
// the completion loop that follows (proxy_writer.cpp). (A program that
// completes the request from another thread races again; the proxy replays
// its calls on one thread.)
#pragma once

#include <cstdint>
#include <set>
#include <vector>

#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

class GeneralizedRequests {
public:
  GeneralizedRequests() = default;
  // The request pools (docs/DUMP.md, "Request ids") whose every creating
  // call in the trace is MPI_Grequest_start. Pools are numbered per rank:
  // a pool that another rank fills with another call counts as not
  // generalized, and its polls are left to the completion loop as before.
  explicit GeneralizedRequests(const std::vector<Call> &calls);
  // Whether every request `poll` names is generalized.
  bool only_generalized(const Call &poll) const;

private:
  std::set<uint64_t> pools_;
};

} // namespace pilgrim::proxygen
