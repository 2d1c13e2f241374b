// The outcomes of the application's attribute callbacks, replayed: a trace
// records each invocation of a user copy or delete callback (the tracer's
// callback records, pilgrim/callback_records.h) right before the MPI call
// that made it. The proxy queues each outcome there (expect_copy,
// expect_delete) and its stand-ins (copy_attr, delete_attr in the prelude)
// take them in order: whether a copy exists and what it is, and the return
// code, which makes the MPI call fail where the original's did.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "call_emitter.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

// The lines of one callback record (a call whose function is a tracer
// record). `handle` gives the proxy's expression of a handle.
std::vector<std::string>
callback_outcome_lines(const Call &call,
                       const std::function<std::string(const HandleRef &)> &handle,
                       ProxySymbols &symbols);

} // namespace pilgrim::proxygen
