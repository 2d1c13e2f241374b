// pilgrim-dump --stats: per-function totals over the selected ranks.
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// rank < 0: all ranks.
void print_stats(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 int64_t rank);

} // namespace pilgrim::dump
