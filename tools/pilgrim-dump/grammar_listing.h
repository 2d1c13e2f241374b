// pilgrim-dump --grammar: a rank's CST entries and grammar rules.
#pragma once

#include <cstdint>

#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

void print_grammar(TextOutput &out, const Trace &trace, uint32_t rank);

} // namespace pilgrim::dump
