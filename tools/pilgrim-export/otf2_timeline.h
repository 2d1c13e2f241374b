// Where the archive's events lie in time (nanoseconds, OTF2's clock):
// per-call modes give each call its aligned start and end
// (TraceFile::call_times); aggregate and none place calls in order, 1 µs
// apart, without real times. Under lossy timing a receive is clamped to no
// earlier than its matched send (ReceiveFloors); every location's events
// stay in time order (LocationClock).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/reader.h"

namespace pilgrim::exporter {

// What the archive's description says about its times.
enum class TimeKind { Real, Lossy, Ordered };
TimeKind time_kind(const reader::TraceFile &trace);
// One paragraph for OTF2_Archive_SetDescription.
std::string time_description(const reader::TraceFile &trace, TimeKind kind, uint64_t clamped);

// One rank's calls' start and end in ns.
class RankTimeline {
public:
  RankTimeline(const reader::TraceFile &trace, uint32_t rank, TimeKind kind);
  uint64_t start(uint64_t call) const;
  uint64_t end(uint64_t call) const;

private:
  uint64_t at(double seconds) const;
  std::vector<CallTime> times_; // empty: ordered placement
  uint64_t origin_ns_ = 0;
};

// The earliest time each matched receive may have (its send's start), per
// receiving rank, from the matcher (tools/matching). Keeps one entry per
// message; built only under lossy timing.
class ReceiveFloors {
public:
  ReceiveFloors() = default;
  explicit ReceiveFloors(const reader::TraceFile &trace);
  // The floor of the receive posted at call `posted` and completed at call
  // `completed` of `rank`; 0 when none.
  uint64_t floor(uint32_t rank, uint64_t completed, uint64_t posted) const;

private:
  struct Floor {
    uint64_t completed, posted, ns;
    bool operator<(const Floor &o) const {
      return completed != o.completed ? completed < o.completed : posted < o.posted;
    }
  };
  std::vector<std::vector<Floor>> by_rank_;
};

// A location's clock: its events' times never go back.
class LocationClock {
public:
  uint64_t at(uint64_t ns) {
    if (ns > last_)
      last_ = ns;
    return last_;
  }

private:
  uint64_t last_ = 0;
};

} // namespace pilgrim::exporter
