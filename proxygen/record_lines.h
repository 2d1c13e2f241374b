// What a proxy makes of a record that is not an MPI call (function ids
// 0x3000..0x3FFF, pilgrim/record_ranges.h): the outcome of a callback
// record is queued for the stand-in callback of the next MPI call
// (callback_outcomes.h); a posix record is the same POSIX call
// (posix_replay.h); a marker is the same switch or phase (marker_replay.h);
// every other record, and any record of a kind or id
// this proxygen does not know, becomes a comment saying why it is not
// replayed: never a call, never an error.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "call_emitter.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

std::vector<std::string> record_lines(const Call &call,
                                      const std::function<std::string(const HandleRef &)> &handle,
                                      ProxySymbols &symbols);

} // namespace pilgrim::proxygen
