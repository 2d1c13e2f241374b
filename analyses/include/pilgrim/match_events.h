// A rank's matching events: the calls whose results depend on the order in
// which messages arrived (docs/guide/replay.md). Order replay
// (PILGRIM_REPLAY, runtime/replay/) makes a run repeat them; pilgrim-diff
// --order shows where two runs' events part.
//  - receives and probes: MPI_Recv, MPI_Irecv, MPI_Sendrecv,
//    MPI_Sendrecv_replace, MPI_Probe, MPI_Mprobe,
//    MPI_Iprobe, MPI_Improbe, and the large-count forms (MPI_Recv_c, ...):
//    the sender and tag they matched (a nonblocking receive's show at the
//    completion of its request);
//  - starts of persistent requests: MPI_Start, MPI_Startall, one event per
//    request started: for a persistent receive (MPI_Recv_init), the sender
//    and tag it matched, as MPI_Irecv's;
//  - completions that return in arrival order: MPI_Waitany, MPI_Waitsome,
//    MPI_Testany, MPI_Testsome: the requests they returned;
//  - polls: MPI_Test, MPI_Testall, MPI_Testany, MPI_Iprobe, MPI_Improbe,
//    MPI_Request_get_status, MPI_Win_test: whether they succeeded.
// The list is pilgrim/match_functions.h. Every call of these functions is an
// event, wildcard or not, so that a replay and its trace count events alike.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/decoded_call.h"
#include "pilgrim/match_event.h"
#include "pilgrim/match_functions.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {


// Rank `rank`'s matching events, in call order. `cst` is decode_cst(trace).
// `threads`, when given, is set to whether the rank called MPI from more
// than one thread (a call with a thread other than 0), whose order across
// threads no event list holds. Throws TraceError as RankCalls does.
std::vector<MatchEvent> match_events(const Trace &trace, const std::vector<DecodedCall> &cst,
                                     uint32_t rank, bool *threads = nullptr);

// What the event chose, as one phrase: "matched source 2, tag 7",
// "returned index 3", "returned indices 0 2", "did not succeed",
// "succeeded".
std::string describe_match(const MatchEvent &e);

} // namespace pilgrim
