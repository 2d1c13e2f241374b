// MPI-IO offsets that follow the rank, learned at MPI_Finalize
// (docs/design/mpiio-offsets.md; the coding:
// docs/FORMAT.md §8.3). The wrappers record every Offset element as
// (stride 0, the value). Before the merge, each rank compares its CST with
// its neighbor's (rank - 1; rank 1 for rank 0): an entry and the neighbor's
// entry at the same place (the same signature but for its offsets, the k-th
// such on both ranks) give each offset the line through the two values,
// stored as (stride, base) with value = base + stride x world rank. So
// `a + b x rank` codes as (b, a) on every rank, and the entries of an SPMD
// program that writes its block of a shared file at rank x block are the
// same bytes on every rank; a constant stays (0, c). Every coding is exact
// whatever the neighbor has: base is computed from the rank's own value.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace pilgrim::rt {

class RankOffsets {
public:
  // Fits the Offset elements of `signatures` (this rank's CST entries, in
  // terminal order) to the neighbor's: one message each way with each
  // neighbor on `comm` (the runtime's private communicator), a few bytes
  // per entry that has offsets. Collective over `comm`.
  void fit(const std::vector<std::string> &signatures, MPI_Comm comm, int rank, int size);
  // The fitted form of a signature, in place (unchanged if nothing fitted).
  void rewrite(std::string &sig) const;
  // The same for each signature of a verify log (varint length + bytes).
  void rewrite_log(std::vector<uint8_t> &log) const;
  size_t fitted() const { return fitted_.size(); }

private:
  std::unordered_map<std::string, std::string> fitted_; // recorded -> fitted
};

RankOffsets &rank_offsets();

} // namespace pilgrim::rt
