// Reading a trace file. Every malformed, truncated or hostile input gives a
// TraceError whose one-line message starts with the file name:
//   "trace.pilgrim: truncated section 3 (RANK rank 1): ..."
//   "trace.pilgrim: format version 5 is newer than this reader (reads 1 to 4): update Pilgrim"
#pragma once

#include <string>
#include <string_view>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// Reads and checks the whole file: container (header, section table,
// checksums), META, FUNCTIONS and every RANK section (structure, grammar,
// function ids of the signatures). Signatures are decoded on demand
// (decode_signature).
Trace read_trace(const std::string &path);

// The same from bytes in memory; `name` prefixes messages.
Trace read_trace_from_memory(std::string_view bytes, const std::string &name = "<memory>");

} // namespace pilgrim
