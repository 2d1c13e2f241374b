// pilgrim-dump --stats: per-function totals over the selected ranks.
#pragma once

#include <cstdint>

#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// rank < 0: all ranks.
void print_stats(TextOutput &out, const Trace &trace, int64_t rank);

} // namespace pilgrim::dump
