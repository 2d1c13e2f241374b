// Where a rank's calls lie on the exported timeline, in nanoseconds.
// Per-call timing modes: the aligned start and end seconds of
// TraceFile::call_times (rank 0's timeline). `aggregate` and `none` keep
// no call's time: each call is placed in order at its position, 1 us per
// call, and nothing about real time can be read from it.
// Slices on one thread track must nest strictly; a lossy mode may give a
// call a start a little before its predecessor's end, so place() starts it
// at that end (its end stays, unless that is earlier still) and counts it.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "pilgrim/reader.h"

namespace pilgrim::exporter {

struct Span {
  int64_t start = 0; // ns
  int64_t end = 0;   // ns, >= start
};

// One rank's calls' spans (the call_times of one rank in memory: 16 bytes a
// call, one rank at a time, which is what the reader hands out).
class CallPlacement {
public:
  // The placement of calls without times: 1 us per call.
  static constexpr int64_t kOrderedCallNs = 1000;

  CallPlacement(const reader::TraceFile &trace, uint32_t rank);
  // Whether the spans are real times (a per-call timing mode).
  bool real() const { return real_; }
  // Call `index`'s span as recorded (end at least start).
  Span raw(uint64_t index) const;
  // The same, on thread `thread`'s track: starting no earlier than the end
  // of the previous call placed on that track. Calls are placed in order.
  Span place(uint64_t index, uint64_t thread);
  // How many calls place() moved.
  uint64_t moved() const { return moved_; }

private:
  bool real_ = false;
  std::vector<CallTime> times_;
  std::unordered_map<uint64_t, int64_t> track_end_;
  uint64_t moved_ = 0;
};

// Whether `span` overlaps the window [from, to] (ns).
inline bool overlaps(const Span &span, int64_t from, int64_t to) {
  return span.end >= from && span.start <= to;
}

// Seconds as nanoseconds, rounded.
int64_t seconds_ns(double seconds);

} // namespace pilgrim::exporter
