// Text form of a decoded call, as pilgrim-dump prints it (docs/DUMP.md):
//   MPI_Isend(buf=buf#2, count=8, datatype=MPI_INT, dest=1 (+1), tag=7,
//             comm=MPI_COMM_WORLD, request=req#0.0) = MPI_SUCCESS
#pragma once

#include <string>

#include "pilgrim/call_context.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_decoder.h"

namespace pilgrim {

// "NAME(param=value, ...) = RESULT".
std::string format_call(const Call &call);
// The same, for `call` resolved in `ctx` (resolve_call).
std::string format_call(const DecodedCall &call, const CallContext &ctx = {});

// Appends the text of one value of `arg` (its `in` or `out`; no "name=").
void append_value(std::string &out, const CallArg &arg, const CallValue &value);
// The text of `arg`'s values: "IN", "OUT" or "IN->OUT" (no "name=").
std::string format_arg(const CallArg &arg);

// "MPI_SUCCESS" for 0, the number otherwise.
std::string format_return_code(int64_t rc);

// A handle as text: "MPI_COMM_NULL", "MPI_INT", "comm#3", "req#2.0" (a
// request's pool and slot, pilgrim/request_id.h).
std::string format_handle(const HandleRef &handle);
// The same for a handle code of kind `kind` (resolve_handle).
std::string format_handle(HandleKind kind, uint64_t code);

// Double as the shortest text that reads back to the same value.
std::string format_double(double v);

// C-style quoted string with \" \\ \n \t \ooo (three octal digits) escapes, so
// the text is a valid C/C++ string literal whatever character follows.
std::string quote_string(const std::string &s);

} // namespace pilgrim
