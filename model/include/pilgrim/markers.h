// Region and phase markers (records 0x3D00..0x3DFF, docs/FORMAT.md §8.7),
// read from a decoded call: what proxies replay and what stats count phases
// by. A marker of an id this model does not know is Unknown: shown, never
// acted on.
#pragma once

#include "pilgrim/decoded_call.h"

#include <cstdint>
#include <string>

namespace pilgrim {

enum class MarkerKind : uint8_t {
  None,     // not a marker
  Pcontrol, // pilgrim_pcontrol(level): MPI_Pcontrol(level)
  TraceOff, // pilgrim_trace_off(): PILGRIM_TRACE_OFF()
  TraceOn,  // pilgrim_trace_on(): PILGRIM_TRACE_ON()
  Phase,    // pilgrim_phase(name): PILGRIM_PHASE(name)
  Unknown,  // a marker id of a later format
};

struct Marker {
  MarkerKind kind = MarkerKind::None;
  int64_t level = 0; // Pcontrol: its level
  std::string phase; // Phase: its name
};

// The marker `call` is (kind None when it is none).
Marker marker_of(const Call &call);

} // namespace pilgrim
