#include "pilgrim/markers.h"

#include "pilgrim/record_ranges.h"

namespace pilgrim {
namespace {

const CallElement *only_element(const Call &call, const char *param) {
  const CallArg *a = call.arg(param);
  const CallValue *v = a ? a->any() : nullptr;
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

} // namespace

Marker marker_of(const Call &call) {
  Marker m;
  if (record_kind(call.function_id) != RecordKind::Marker)
    return m;
  switch (call.function_id) {
  case kPcontrolMarker:
    m.kind = MarkerKind::Pcontrol;
    if (const CallElement *e = only_element(call, "level"))
      m.level = e->integer;
    break;
  case kTraceOffMarker:
    m.kind = MarkerKind::TraceOff;
    break;
  case kTraceOnMarker:
    m.kind = MarkerKind::TraceOn;
    break;
  case kPhaseMarker:
    m.kind = MarkerKind::Phase;
    if (const CallElement *e = only_element(call, "name"))
      m.phase = e->text;
    break;
  default:
    m.kind = MarkerKind::Unknown;
  }
  return m;
}

} // namespace pilgrim
