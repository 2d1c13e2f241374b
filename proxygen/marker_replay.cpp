#include "marker_replay.h"

#include "pilgrim/call_formatter.h"
#include "pilgrim/markers.h"

namespace pilgrim::proxygen {

std::vector<std::string> marker_lines(const Call &call) {
  const Marker m = marker_of(call);
  switch (m.kind) {
  case MarkerKind::Pcontrol:
    return {"MPI_Pcontrol(" + std::to_string(m.level) + ");"};
  case MarkerKind::TraceOff:
    return {"if (pilgrim_trace_off) pilgrim_trace_off();"};
  case MarkerKind::TraceOn:
    return {"if (pilgrim_trace_on) pilgrim_trace_on();"};
  case MarkerKind::Phase:
    return {"// phase " + quote_string(m.phase),
            "if (pilgrim_phase) pilgrim_phase(" + quote_string(m.phase) + ");"};
  default:
    return {}; // record_lines comments it
  }
}

} // namespace pilgrim::proxygen
