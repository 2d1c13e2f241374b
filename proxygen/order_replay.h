// The order a proxy of pilgrim-proxygen --order replays by itself: the
// runtime's order replay (runtime/replay/) compiled into the proxy, every
// rank's matching events (pilgrim/match_events.h) as tables, and the MPI
// functions replay takes over, defined by the proxy. A proxy run without a
// Pilgrim tracer forces the recorded order itself (a vendor needs nothing
// of Pilgrim); under libpilgrim.so it hands every call on to the tracer,
// which replays the order when PILGRIM_REPLAY names the trace.
#pragma once

#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"

#include <string>
#include <vector>

namespace pilgrim::proxygen {

// The proxy's code for it, to follow the prelude: defines order_start(int
// world_rank), which main calls after MPI_Init.
std::string order_replay_code(const Trace &trace, const std::vector<DecodedCall> &cst,
                              const std::string &trace_path);

} // namespace pilgrim::proxygen
