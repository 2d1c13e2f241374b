// The proxy's replay of per-call gaps (call_gaps.h): `gap(SLOT);` before a
// call replays the computation recorded before the calls of its grammar
// position, as their mean, as a draw from their distribution (both from the
// table of the rank's class, rank_classes.h, which the proxy picks by its
// rank at start-up), or (exact) as each call's own gap read at start-up
// from the companion file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "call_gaps.h"

namespace pilgrim::proxygen {

enum class GapMode { Mean, Distribution, Exact };

// The proxy's definitions of gap(int slot) and setup_gaps() (which seeds the
// draws, or loads the gaps file: `gaps_path` is where the proxy looks by
// default).
std::vector<std::string> gap_replay_code(const MeasuredGaps &gaps, GapMode mode,
                                         const std::string &gaps_path);

// What ties a gaps file to its proxy: FNV-1a of the proxy's source.
uint64_t source_fingerprint(const std::string &source);

} // namespace pilgrim::proxygen
