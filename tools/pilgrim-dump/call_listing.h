// The default pilgrim-dump output: every call of a rank, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// The call text (format_call) of every CST entry of rank `rank`. Throws
// TraceError "rank R CST entry I: ..." on an undecodable signature.
std::vector<std::string> format_cst(const Trace &trace, uint32_t rank);

// "rank R call N: TEXT" per call of the grammar's expansion.
void print_calls(TextOutput &out, const Trace &trace, uint32_t rank);

} // namespace pilgrim::dump
