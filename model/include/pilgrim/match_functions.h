// The MPI functions whose calls are matching events (pilgrim/match_events.h):
// their results depend on the order in which messages arrived. One list for
// the wrapper generator (whose wrappers of these functions divert to order
// replay, runtime/replay/), the runtime's replay and the analyses.
// The large-count forms (MPI_Recv_c, ...) are not in it yet: their calls
// are recorded, not replayed (docs/guide/replay.md, "Limits").
#pragma once

#include <string_view>

namespace pilgrim {

// A receive or probe: what it matched (sender, tag).
inline bool is_match_receive(std::string_view n) {
  return n == "MPI_Recv" || n == "MPI_Irecv" || n == "MPI_Sendrecv" ||
         n == "MPI_Sendrecv_replace" || n == "MPI_Probe" || n == "MPI_Mprobe" ||
         n == "MPI_Iprobe" || n == "MPI_Improbe";
}

// A poll: whether it succeeded (its `flag`).
inline bool is_match_poll(std::string_view n) {
  return n == "MPI_Test" || n == "MPI_Testall" || n == "MPI_Testany" || n == "MPI_Iprobe" ||
         n == "MPI_Improbe" || n == "MPI_Request_get_status" || n == "MPI_Win_test";
}

// A completion that returns the requests that completed first.
inline bool is_match_completion(std::string_view n) {
  return n == "MPI_Waitany" || n == "MPI_Waitsome" || n == "MPI_Testany" || n == "MPI_Testsome";
}

inline bool is_match_function(std::string_view n) {
  return is_match_receive(n) || is_match_poll(n) || is_match_completion(n);
}

} // namespace pilgrim
