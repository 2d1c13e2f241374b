// Encoding of function-table rows in the FUNCTIONS section
// (docs/FORMAT.md, "FUNCTIONS section").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/function_table.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

// The FUNCTIONS payload for `functions`, written sorted by id. Throws
// TraceError on a null entry, a duplicate id, or a row that breaks the
// format's rules (a ref index or enum value out of range).
std::string encode_function_table(const std::vector<const FunctionInfo *> &functions);

// Parses a FUNCTIONS payload. Rows come back sorted by id (the encoding
// requires strictly increasing ids). Throws TraceError on malformed input.
std::vector<OwnedFunction> decode_function_table(std::string_view payload);

// Checks one row against the rules decode_function_table enforces.
void validate_function(const FunctionInfo &fn);

} // namespace pilgrim
