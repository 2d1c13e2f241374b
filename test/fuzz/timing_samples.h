// The timing modes the fuzzer decodes payloads with (mode 6: the byte after
// the mode picks one, modulo the count) and the seed payloads' groups.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim::sample {

inline constexpr const char *kTimingSpecs[] = {
    "lossless",           "cfg:0.1", "hist:0.1,8",        "hist:0.05,2", "pred:0.1",
    "pred-clustered:0.1", "zfp:100", "zfp-clustered:100",
};
inline constexpr size_t kTimingSpecCount = sizeof kTimingSpecs / sizeof kTimingSpecs[0];
inline uint32_t timing_group(uint64_t call) { return static_cast<uint32_t>(call % 5); }

} // namespace pilgrim::sample
