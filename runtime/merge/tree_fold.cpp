#include "tree_fold.h"

#include <algorithm>
#include <cstdint>

namespace pilgrim::rt {

namespace {

constexpr uint64_t kChunk = uint64_t{1} << 30; // MPI counts are int

void send_bytes(const std::string &bytes, int to, int tag, MPI_Comm comm) {
  uint64_t n = bytes.size();
  PMPI_Send(&n, 1, MPI_UINT64_T, to, tag, comm);
  for (uint64_t off = 0; off < n; off += kChunk)
    PMPI_Send(bytes.data() + off, static_cast<int>(std::min(kChunk, n - off)), MPI_BYTE, to, tag,
              comm);
}

std::string recv_bytes(int from, int tag, MPI_Comm comm) {
  uint64_t n = 0;
  PMPI_Recv(&n, 1, MPI_UINT64_T, from, tag, comm, MPI_STATUS_IGNORE);
  std::string bytes(n, '\0');
  for (uint64_t off = 0; off < n; off += kChunk)
    PMPI_Recv(&bytes[off], static_cast<int>(std::min(kChunk, n - off)), MPI_BYTE, from, tag, comm,
              MPI_STATUS_IGNORE);
  return bytes;
}

} // namespace

bool fold_to_root(MPI_Comm comm, int tag, const std::function<std::string()> &serialize,
                  const std::function<void(const std::string &)> &absorb) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  for (int step = 1; step < size; step *= 2) {
    if (rank % (2 * step) == step) {
      send_bytes(serialize(), rank - step, tag, comm);
      return false;
    }
    if (rank % (2 * step) == 0 && rank + step < size)
      absorb(recv_bytes(rank + step, tag, comm));
  }
  return rank == 0;
}

} // namespace pilgrim::rt
