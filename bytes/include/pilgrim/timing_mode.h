// The timing mode of a trace (META key 4, docs/FORMAT.md §5): what the
// runtime measured. The values are part of the format and are those of
// timing::Method (timing/include/pilgrim/timing_spec.h); the names are those
// PILGRIM_TIMING takes and pilgrim-dump prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace pilgrim {

enum class TimingMode : uint8_t {
  None = 0,      // no clock read: the trace has no timing
  Aggregate = 1, // per signature: count, mean/std/min/max of duration and interval
  // Per-call modes (version 6): every call's start and end, in the rank's
  // RANK_TIMING section, coded as META's timing_spec says.
  Lossless = 2,
  Cfg = 3,
  Hist = 4,
  Pred = 5,
  Zfp = 6,
  PredClustered = 7,
  ZfpClustered = 8,
};

inline constexpr const char *kTimingModeNames[] = {"none", "aggregate",      "lossless",
                                                   "cfg",  "hist",           "pred",
                                                   "zfp",  "pred-clustered", "zfp-clustered"};
inline constexpr size_t kTimingModeCount = sizeof kTimingModeNames / sizeof kTimingModeNames[0];

// Whether a mode keeps every call's times (a RANK_TIMING section per rank).
inline constexpr bool is_per_call(uint8_t mode) {
  return mode >= static_cast<uint8_t>(TimingMode::Lossless) && mode < kTimingModeCount;
}

// "none", "aggregate", ..., or "unknown (N)" for a value this build does not know.
inline std::string timing_mode_text(uint8_t mode) {
  if (mode < kTimingModeCount)
    return kTimingModeNames[mode];
  return "unknown (" + std::to_string(mode) + ")";
}

} // namespace pilgrim
