// The "# ..." header block pilgrim-dump and pilgrim-stats print first: which
// trace, which MPI, how many ranks, the timing mode.
#pragma once

#include <cstddef>
#include <string>

#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim {

// `clock`: in a per-call timing mode, "# clock: " and this text follow the
// timing spec (pilgrim-dump: dump::clock_text).
void print_header_block(TextOutput &out, const std::string &path, const TraceHeader &header,
                        size_t nfunctions, const std::string &clock = "");

// "2024-05-01T12:34:56.123456789Z"; "" when out of gmtime's range.
std::string format_unix_ns(int64_t ns);

} // namespace pilgrim
