#include "record_lines.h"

#include "callback_outcomes.h"
#include "marker_replay.h"
#include "pilgrim/callback_records.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/trace_error.h"
#include "posix_replay.h"

#include <cstdio>

namespace pilgrim::proxygen {

std::vector<std::string> record_lines(const Call &call,
                                      const std::function<std::string(const HandleRef &)> &handle,
                                      ProxySymbols &symbols) {
  CallbackRecordKind callback;
  if (callback_record_kind(call.function_id, callback))
    return callback_outcome_lines(call, handle, symbols);
  const char *why = nullptr;
  switch (record_kind(call.function_id)) {
  case RecordKind::Posix:
    return posix_lines(call, handle);
  case RecordKind::Marker:
    if (std::vector<std::string> lines = marker_lines(call); !lines.empty())
      return lines;
    why = "a region or phase marker this proxygen does not know";
    break;
  case RecordKind::Fact:
    why = "a fact the tracer stated, not a call: the proxy's own calls state it again";
    break;
  case RecordKind::Callback:
    why = "a callback record this proxygen does not know";
    break;
  default:
    why = "a record that is not an MPI call, of a kind this proxygen does not replay";
    break;
  }
  char id[8];
  std::snprintf(id, sizeof id, "0x%04X", static_cast<unsigned>(call.function_id));
  const std::string name = call.function && call.function->name
                               ? sanitize_for_message(call.function->name, 200)
                               : std::string("record");
  return {"// " + name + " (" + id + "): " + why};
}

} // namespace pilgrim::proxygen
