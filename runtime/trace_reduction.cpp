#include "trace_reduction.h"

#include <algorithm>
#include <string>

#include "byte_messages.h"
#include "clock.h"

namespace pilgrim::rt {

namespace {

constexpr int kTag = 7; // the merge's messages (call_sites.cpp uses another)

} // namespace

std::optional<MergedTrace> reduce_to_root(MPI_Comm comm, MergeState state, ReductionStats *stats) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const int64_t t0 = monotonic_ns();
  for (int step = 1; step < size; step *= 2) {
    if (rank % (2 * step) == step) {
      send_bytes(state.serialize(), rank - step, kTag, comm);
      if (stats)
        stats->merge_seconds = static_cast<double>(monotonic_ns() - t0) * 1e-9;
      return std::nullopt;
    }
    if (rank % (2 * step) == 0 && rank + step < size) {
      const std::string bytes = recv_bytes(rank + step, kTag, comm);
      if (stats)
        stats->bytes_received += bytes.size();
      // The bytes came from our own peer in this library: a parse error is a
      // bug, and it throws rather than writing a wrong trace.
      state.absorb(MergeState::parse(bytes));
    }
  }
  MergedTrace merged = state.finish();
  if (stats)
    stats->merge_seconds = static_cast<double>(monotonic_ns() - t0) * 1e-9;
  return merged;
}

} // namespace pilgrim::rt
