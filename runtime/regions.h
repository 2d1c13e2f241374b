// Tracing regions and phases (README "Regions and phases"): PILGRIM_START,
// MPI_Pcontrol and the hooks of pilgrim/annotate.h switch tracing off and
// on, and each switch and phase is a marker record (docs/FORMAT.md §8.7).
//
// While tracing is off a call is recorded only when the region rule keeps
// it: calls that create, change or free handles other than requests (a
// handle parameter created, freed or written; the setters, MPI_*_set_*,
// and attribute and info deletions), so that every id a later call names
// was made in the trace; MPI_Init and MPI_Finalize, markers, and calls on
// requests of the on region. A request
// belongs to the region of the call that made it (MPI_Isend, MPI_Send_init,
// ...): one made while tracing is on is recorded to its end, whatever the
// region of the call that completes it; one made while off never appears,
// and in a call that also names requests of the on region it is written as
// MPI_REQUEST_NULL, its status empty.
#pragma once

#include <cstdint>
#include <vector>

namespace pilgrim::rt {

enum class RegionRule : uint8_t {
  Traffic,  // passed through untraced while tracing is off
  Requests, // names requests: recorded if one of them is of the on region
  Kept,     // always recorded: handles, MPI_Init, MPI_Finalize, markers, facts
};

// The rule of every function id of the generated table.
std::vector<RegionRule> region_rules(uint16_t id_init, uint16_t id_init_thread,
                                     uint16_t id_finalize);

// MPI_Pcontrol(level)'s work: the marker, and level 0 turns tracing off, a
// positive level on; a negative one changes nothing.
void pcontrol(int level);

} // namespace pilgrim::rt

// The hooks pilgrim/annotate.h declares weak (the same names, C linkage).
extern "C" {
__attribute__((visibility("default"))) void pilgrim_phase(const char *name);
__attribute__((visibility("default"))) void pilgrim_trace_off(void);
__attribute__((visibility("default"))) void pilgrim_trace_on(void);
}
