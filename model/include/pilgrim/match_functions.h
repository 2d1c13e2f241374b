// The MPI functions whose calls are matching events (pilgrim/match_events.h):
// their results depend on the order in which messages arrived. One list for
// the wrapper generator (whose wrappers of these functions divert to order
// replay, runtime/replay/), the runtime's replay and the analyses.
// The large-count forms of MPI 4 (MPI_Recv_c, ...) are in it beside their
// plain forms.
#pragma once

#include <string_view>

namespace pilgrim {

// A large-count form's plain name: MPI_Recv_c -> MPI_Recv; any other
// name unchanged.
inline std::string_view match_base_name(std::string_view n) {
  if (n.size() > 2 && n.substr(n.size() - 2) == "_c")
    n.remove_suffix(2);
  return n;
}

// A receive or probe: what it matched (sender, tag).
inline bool is_match_receive(std::string_view n) {
  const std::string_view b = match_base_name(n);
  const bool counted = b == "MPI_Recv" || b == "MPI_Irecv" || b == "MPI_Sendrecv" ||
                       b == "MPI_Sendrecv_replace";
  if (counted)
    return true;
  return n == "MPI_Probe" || n == "MPI_Mprobe" || n == "MPI_Iprobe" || n == "MPI_Improbe";
}

// A start of persistent requests: each persistent receive it starts matches
// a message, which its completion shows (sender, tag), as MPI_Irecv's does.
// MPI_Startall is one event per request it starts.
inline bool is_match_start(std::string_view n) {
  return n == "MPI_Start" || n == "MPI_Startall";
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
  return is_match_receive(n) || is_match_poll(n) || is_match_completion(n) ||
         is_match_start(n);
}

// The functions order replay takes over although their calls are no events:
// those that create persistent receives, and those that complete, cancel or
// free requests without a choice of order (a persistent wildcard receive
// started under replay is served by a request of replay's own, which these
// stand in for; runtime/replay/replay_calls.h).
inline bool is_replay_bookkeeping(std::string_view n) {
  return match_base_name(n) == "MPI_Recv_init" || n == "MPI_Wait" || n == "MPI_Waitall" ||
         n == "MPI_Cancel" || n == "MPI_Request_free";
}

// What the wrapper generator sends to order replay while a run replays.
inline bool is_replay_function(std::string_view n) {
  return is_match_function(n) || is_replay_bookkeeping(n);
}

} // namespace pilgrim
