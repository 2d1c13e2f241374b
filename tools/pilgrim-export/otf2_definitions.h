// The archive's global definitions, written last (they need every
// location's event count): clock properties, strings, the MPI paradigm, one
// region per MPI function the trace calls (with its region role), the
// system tree, one location group per rank and one location per rank and
// thread, and the communicators with their world-rank membership.
#pragma once

#include <cstdint>
#include <otf2/otf2.h>
#include <vector>

#include "otf2_rank_events.h"
#include "pilgrim/reader.h"

namespace pilgrim::exporter {

// The region of each function id the trace's CST calls, numbered densely
// in function-id order; OTF2_UNDEFINED_REGION for the others.
std::vector<OTF2_RegionRef> otf2_regions(const reader::TraceFile &trace);

// Writes them; throws Otf2Error.
void write_global_definitions(OTF2_Archive *archive, const reader::TraceFile &trace,
                              const std::vector<OTF2_RegionRef> &regions,
                              const std::vector<CommInstance> &instances,
                              const Otf2Written &written);

} // namespace pilgrim::exporter
