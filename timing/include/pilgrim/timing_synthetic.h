// Synthetic per-call tick streams for the codec tests, the memory check and
// bench/timing_codecs: gaps and durations drawn from a named distribution,
// deterministic for a seed. Times are in ticks (think nanoseconds).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::timing {

struct TickStream {
  std::vector<int64_t> start, end;
  std::vector<uint32_t> group;
  size_t size() const { return start.size(); }
};

// Kinds:
//   constant   every gap 1000, every duration 500
//   uniform    gap and duration uniform in [0, 10000]
//   bimodal    two groups: durations near 200 or near 20000, gaps near 50 or 5000
//   pareto     heavy tail: Pareto(xm = 100, alpha = 1.2) gaps and durations
//   zero       every gap and every duration 0
//   signed     gaps of either sign (held records arrive out of time order)
//   stencil    a 2-D stencil's loop: 4 Irecv, 4 Isend, Waitall (noisy
//              waits), a compute gap of ~1 ms, an Allreduce every 10th
//              iteration; one group per call site
// Returns false for an unknown kind.
bool synthetic_stream(const std::string &kind, size_t n, uint64_t seed, TickStream &out);
// The kinds above, for loops over all of them.
const std::vector<std::string> &synthetic_kinds();

} // namespace pilgrim::timing
