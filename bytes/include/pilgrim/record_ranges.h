// Function ids of the records that are not MPI calls (docs/FORMAT.md §6.2).
//
// One range, 0x3000..0x3FFF, below the ids the MPI sidecars may take
// (1..0x2FFF and 0x4000..0x7FFF) and the defaulted ids (0x8000 and above),
// subdivided by kind. Each record has a row in the trace's FUNCTIONS table
// like an MPI function (generator/annotations/records.yaml), so a reader
// prints and compares it from that row whatever its kind; only what acts
// on a record (a proxy, an analysis) needs to know its kind. THE RANGES ARE
// PART OF THE TRACE FORMAT.
#pragma once

#include <cstdint>

namespace pilgrim {

enum class RecordKind : uint8_t {
  None,     // an MPI function (not in the range)
  Posix,    // 0x3000..0x3BFF: POSIX I/O calls (version 7: posix_records.h)
  Memory,   // 0x3C00..0x3CFF: memory allocations and frees (reserved)
  Marker,   // 0x3D00..0x3DFF: region and phase markers (version 8: 0x3D00..0x3D03)
  Fact,     // 0x3E00..0x3EFF: facts the tracer states (a datatype's layout)
  Callback, // 0x3F00..0x3FFF: calls of the application's callbacks MPI made
};

constexpr uint16_t kFirstRecordId = 0x3000;
constexpr uint16_t kLastRecordId = 0x3FFF;

struct RecordRange {
  RecordKind kind;
  const char *name; // the `kind` of generator/annotations/records.yaml
  uint16_t first, last;
};
// The sub-ranges, by increasing id; they cover [kFirstRecordId, kLastRecordId].
constexpr RecordRange kRecordRanges[] = {
    {RecordKind::Posix, "posix", 0x3000, 0x3BFF},
    {RecordKind::Memory, "memory", 0x3C00, 0x3CFF},
    {RecordKind::Marker, "marker", 0x3D00, 0x3DFF},
    {RecordKind::Fact, "fact", 0x3E00, 0x3EFF},
    {RecordKind::Callback, "callback", 0x3F00, 0x3FFF},
};

// Whether `function_id` is a record that is not an MPI call.
constexpr bool is_record(uint16_t function_id) {
  return function_id >= kFirstRecordId && function_id <= kLastRecordId;
}

// The kind of `function_id`; None for an MPI function.
constexpr RecordKind record_kind(uint16_t function_id) {
  for (const RecordRange &r : kRecordRanges)
    if (function_id >= r.first && function_id <= r.last)
      return r.kind;
  return RecordKind::None;
}

// The range of kind `kind`; nullptr for None.
constexpr const RecordRange *record_range(RecordKind kind) {
  for (const RecordRange &r : kRecordRanges)
    if (r.kind == kind)
      return &r;
  return nullptr;
}

// Ids of the records the tracer writes (their rows: records.yaml).
constexpr uint16_t kDatatypeLayoutRecord = 0x3E00; // pilgrim_datatype_layout
// Region and phase markers (version 8, docs/FORMAT.md §8.7).
constexpr uint16_t kPcontrolMarker = 0x3D00; // pilgrim_pcontrol(level): an MPI_Pcontrol call
constexpr uint16_t kTraceOffMarker = 0x3D01; // pilgrim_trace_off(): PILGRIM_TRACE_OFF()
constexpr uint16_t kTraceOnMarker = 0x3D02;  // pilgrim_trace_on(): PILGRIM_TRACE_ON()
constexpr uint16_t kPhaseMarker = 0x3D03;    // pilgrim_phase(name): PILGRIM_PHASE(name)

} // namespace pilgrim
