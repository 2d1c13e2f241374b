// pilgrim-dump --grammar: the merged trace's shape, and per rank the CST
// entries and rules its grammar uses (numbered as in the merged trace, so
// ranks that share a grammar or rules show the same names).
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// "# merged: ..." and the rank map, once per output.
void print_merge_summary(TextOutput &out, const Trace &trace);

void print_grammar(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                   uint32_t rank);

} // namespace pilgrim::dump
