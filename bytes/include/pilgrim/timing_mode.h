// The timing mode of a trace (META key 4, docs/FORMAT.md §5): what the
// runtime measured. The values are part of the format; the names are those
// PILGRIM_TIMING takes and pilgrim-dump prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pilgrim {

enum class TimingMode : uint8_t {
  None = 0,      // no clock read: the trace has no timing
  Aggregate = 1, // per signature: count, mean/std/min/max of duration and interval
};

inline constexpr const char *kTimingModeNames[] = {"none", "aggregate"};
inline constexpr size_t kTimingModeCount = sizeof kTimingModeNames / sizeof kTimingModeNames[0];

// "none", "aggregate", or "unknown (N)" for a value this build does not know.
inline std::string timing_mode_text(uint8_t mode) {
  if (mode < kTimingModeCount)
    return kTimingModeNames[mode];
  return "unknown (" + std::to_string(mode) + ")";
}

} // namespace pilgrim
