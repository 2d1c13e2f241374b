// One rank's events, streamed: its calls walked once in order (CallCursor)
// and written straight to the event writers of its locations (the rank's
// main thread, and one per other thread recorded), the mapping of
// docs/EXPORT.md, "OTF2". Memory: the rank's call times and live requests.
#pragma once

#include <cstdint>
#include <otf2/otf2.h>
#include <vector>

#include "comm_resolver.h"
#include "otf2_timeline.h"
#include "pilgrim/reader.h"

namespace pilgrim::exporter {

// What every rank's writing shares.
struct Otf2Run {
  const reader::TraceFile *trace = nullptr;
  const CommDirectory *communicators = nullptr;
  // The region of each function id (OTF2_UNDEFINED_REGION: not used).
  const std::vector<OTF2_RegionRef> *regions = nullptr;
  TimeKind time = TimeKind::Ordered;
  const ReceiveFloors *floors = nullptr; // TimeKind::Lossy only
};

struct Otf2Location {
  uint32_t rank = 0;
  uint64_t thread = 0; // the trace's thread id (0: the main thread)
  OTF2_LocationRef ref = 0;
  uint64_t events = 0;
};

// What the rank's writing leaves for the global definitions.
struct Otf2Written {
  std::vector<Otf2Location> locations;
  uint64_t first_ns = UINT64_MAX, last_ns = 0;
  uint64_t clamped = 0; // receive events moved to their send's time
  uint64_t skipped = 0; // message events left out: communicator or peer unknown
};

// Thread T of rank R (the runtime's thread id: 0 the main thread, then 1,
// 2, ... in the order threads first called MPI) is location T * nranks + R.
inline OTF2_LocationRef otf2_location(uint32_t rank, uint64_t thread, uint32_t nranks) {
  return thread * nranks + rank;
}

// Writes rank `rank`'s events; throws Otf2Error (otf2_archive.h) when OTF2
// fails and pilgrim::TraceError when the trace does.
void write_rank_events(OTF2_Archive *archive, const Otf2Run &run, uint32_t rank,
                       Otf2Written &written);

} // namespace pilgrim::exporter
