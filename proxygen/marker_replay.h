// What a proxy makes of a region or phase marker (docs/FORMAT.md §8.7): the
// same switch or phase, so that the proxy run under the tracer records the
// same markers and the same region (README "Regions and phases"):
// pilgrim_pcontrol(level) is MPI_Pcontrol(level); pilgrim_trace_off/on and
// pilgrim_phase call the tracer's hooks where the tracer is loaded (weak,
// declared by the prelude), a phase with a comment naming it. A marker of an
// id this proxygen does not know: no lines (record_lines.h comments it).
#pragma once

#include <string>
#include <vector>

#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

std::vector<std::string> marker_lines(const Call &call);

} // namespace pilgrim::proxygen
