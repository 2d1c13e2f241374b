// One call as a Chrome slice: its name, category and arguments, the
// arguments' text as pilgrim-dump prints them (call_formatter.h).
#pragma once

#include <cstdint>
#include <string>

#include "chrome_json.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim::exporter {

// "MPI_Send"; "function#ID" for a function the trace has no row for.
std::string call_name(const Call &call);

// The slice's category: "mpi.collective" (blocking and non-blocking
// collectives), "mpi.p2p" (calls with a peer rank and a tag), "mpi.wait"
// (MPI_Wait*, MPI_Test*), "mpi" otherwise.
const char *call_category(const Call &call);

// The args object: "call" (the position in the rank's sequence, as
// pilgrim-dump numbers it), "thread" where not the main thread, one entry
// per parameter ("IN", "OUT" or "IN->OUT", as pilgrim-dump writes it),
// "bytes" where the buffers' size is known (message_volume.h), "return"
// where not MPI_SUCCESS.
JsonObject call_args(const Call &call, uint64_t index);

} // namespace pilgrim::exporter
