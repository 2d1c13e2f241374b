// The META section: trace header fields as key/length/value records
// (docs/FORMAT.md, "META section").
#pragma once

#include <string>
#include <string_view>

#include "pilgrim/trace_model.h"

namespace pilgrim {

std::string encode_meta(const TraceHeader &header);

// Fills every field but `version`. Throws TraceError on malformed records,
// a duplicate key or a missing rank count. Unknown keys are skipped.
TraceHeader decode_meta(std::string_view payload);

} // namespace pilgrim
