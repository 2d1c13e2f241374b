// pilgrim-dump --comms: every user communicator with its members as world
// ranks (docs/DUMP.md, "--comms").
#pragma once

#include <cstdint>

#include "pilgrim/trace_model.h"
#include "text_output.h"

namespace pilgrim::dump {

// rank < 0: every communicator; else those rank `rank` belongs to.
void print_comms(TextOutput &out, const Trace &trace, int64_t rank);

} // namespace pilgrim::dump
