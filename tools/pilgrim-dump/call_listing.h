// The default pilgrim-dump output: every call of a rank, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// One call as pilgrim-dump prints it: "[thread T] " (other threads than the
// main one) and the call's text.
std::string call_text(const Call &call);

// "rank R call N: TEXT" per call of the rank's walk (RankCalls), each call
// resolved at its position. A CST entry's text is kept while what ids mean
// does not change (RankCalls::meaning_version), so a loop costs one
// resolution and formatting per entry.
void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank);

} // namespace pilgrim::dump
