#include "trace_reduction.h"

#include <algorithm>
#include <string>

#include "clock.h"

namespace pilgrim::rt {

namespace {

constexpr int kTag = 7;
constexpr uint64_t kChunk = uint64_t{1} << 30; // MPI counts are int

void send_bytes(const std::string &bytes, int to, MPI_Comm comm) {
  uint64_t n = bytes.size();
  PMPI_Send(&n, 1, MPI_UINT64_T, to, kTag, comm);
  for (uint64_t off = 0; off < n; off += kChunk)
    PMPI_Send(bytes.data() + off, static_cast<int>(std::min(kChunk, n - off)), MPI_BYTE, to, kTag,
              comm);
}

std::string recv_bytes(int from, MPI_Comm comm) {
  uint64_t n = 0;
  PMPI_Recv(&n, 1, MPI_UINT64_T, from, kTag, comm, MPI_STATUS_IGNORE);
  std::string bytes(n, '\0');
  for (uint64_t off = 0; off < n; off += kChunk)
    PMPI_Recv(&bytes[off], static_cast<int>(std::min(kChunk, n - off)), MPI_BYTE, from, kTag,
              comm, MPI_STATUS_IGNORE);
  return bytes;
}

}  // namespace

std::optional<MergedTrace> reduce_to_root(MPI_Comm comm, MergeState state, ReductionStats *stats) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const int64_t t0 = monotonic_ns();
  for (int step = 1; step < size; step *= 2) {
    if (rank % (2 * step) == step) {
      send_bytes(state.serialize(), rank - step, comm);
      if (stats)
        stats->merge_seconds = static_cast<double>(monotonic_ns() - t0) * 1e-9;
      return std::nullopt;
    }
    if (rank % (2 * step) == 0 && rank + step < size) {
      const std::string bytes = recv_bytes(rank + step, comm);
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

}  // namespace pilgrim::rt
