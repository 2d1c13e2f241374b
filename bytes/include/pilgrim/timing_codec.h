// The TIMING section (docs/FORMAT.md §7.1): one rank's per-signature timing,
// quantized to 16-bit logarithmic codes and stored uncompressed, so that a
// trace's size depends on its calls and not on how fast they happened to run.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/file_layout.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

// Seconds -> code: 0 for 0 (and anything below 0.5 ns), else
// 1 + round(1024 * log2(nanoseconds)) clamped to [1, 65535]. The relative
// error of a value of 1 ns or more is at most 2^(1/2048) - 1 (0.034%).
uint16_t quantize_seconds(double seconds);
double dequantize_seconds(uint16_t code);

// A timing as the TIMING section keeps it: mean, standard deviation, min and
// max each quantized (m2 is rebuilt from the deviation).
TimingStats quantize_timing(const TimingStats &t);

// The TIMING (or MERGED_TIMING) payload of a CST, in the layout of format
// version `version` (kind 5 from kFirstSingleSampleTimingVersion on).
std::string serialize_timing(const std::vector<CstEntry> &cst, uint16_t version);

// Fills cst[i].duration/interval from a TIMING payload of a file of format
// version `version`; throws TraceError if it is malformed or does not match
// the CST's size.
void apply_timing(std::vector<CstEntry> &cst, std::string_view payload, uint16_t version);

// Whether any CST entry carries timing samples.
bool has_timing(const std::vector<CstEntry> &cst);

} // namespace pilgrim
