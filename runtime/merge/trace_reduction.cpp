#include "trace_reduction.h"

#include <string>

#include "clock/clock.h"
#include "tree_fold.h"

namespace pilgrim::rt {

namespace {

constexpr int kTag = 7; // the merge's messages (call_sites.cpp uses another)

} // namespace

std::optional<MergedTrace> reduce_to_root(MPI_Comm comm, MergeState state, ReductionStats *stats) {
  const int64_t t0 = monotonic_ns();
  const bool root = fold_to_root(
      comm, kTag, [&] { return state.serialize(); },
      [&](const std::string &bytes) {
        if (stats)
          stats->bytes_received += bytes.size();
        // The bytes came from our own peer in this library: a parse error is
        // a bug, and it throws rather than writing a wrong trace.
        state.absorb(MergeState::parse(bytes));
      });
  std::optional<MergedTrace> merged;
  if (root)
    merged = state.finish();
  if (stats)
    stats->merge_seconds = static_cast<double>(monotonic_ns() - t0) * 1e-9;
  return merged;
}

} // namespace pilgrim::rt
