// The META section: trace header fields as key/length/value records
// (docs/FORMAT.md, "META section").
#pragma once

#include <string>
#include <string_view>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// `sites`, when not empty, is the value of key 8 (site_codec.h): the site
// table rides in META rather than in a section of its own (docs/FORMAT.md
// §5.1 says why).
std::string encode_meta(const TraceHeader &header, std::string_view sites = {});

// Fills every field but `version`, and `*sites` (when given) with key 8's
// value ("" when absent). Throws TraceError on malformed records, a
// duplicate key or a missing rank count. Unknown keys are skipped.
TraceHeader decode_meta(std::string_view payload, std::string *sites = nullptr);

} // namespace pilgrim
