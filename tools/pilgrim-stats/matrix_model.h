// The communication matrix of a trace (pilgrim-stats --matrix,
// docs/STATS.md "Communication matrix"): messages and bytes per (sender,
// receiver) pair of world ranks, for point-to-point messages and,
// separately, for collectives by their logical pattern, per communicator
// and in total.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace pilgrim::stats {

struct MatrixCell {
  uint64_t messages = 0;
  uint64_t bytes = 0;
};

// Sparse: only the pairs that exchanged something.
class SparseMatrix {
public:
  void add(uint32_t sender, uint32_t receiver, uint64_t messages, uint64_t bytes);
  void add(const SparseMatrix &other);
  bool empty() const { return cells_.empty(); }
  // (sender, receiver) -> cell, sorted by sender, then receiver.
  std::map<std::pair<uint32_t, uint32_t>, MatrixCell> sorted() const;

private:
  std::unordered_map<uint64_t, MatrixCell> cells_; // key: sender << 32 | receiver
};

enum class MatrixKind { PointToPoint, Collective };
constexpr int kMatrixKinds = 2;
const char *matrix_kind_name(MatrixKind kind); // "p2p", "collective"

struct CommunicationMatrix {
  uint32_t nranks = 0;
  // Communicator names, indexed as the per-communicator matrices are:
  // MPI_COMM_WORLD, MPI_COMM_SELF, then the trace's communicator instances
  // ("comm#3", "comm#3 (instance 2)", as pilgrim-dump --comms names them).
  std::vector<std::string> comm_names;
  // [kind][communicator]
  std::vector<SparseMatrix> by_comm[kMatrixKinds];
  // What the matrix leaves out, per kind: calls on a communicator whose
  // members are not known (a user communicator of a trace before format
  // version 5, which does not record them), messages whose receiver is not
  // known as a world rank (a rank outside the trace, a relative rank with an
  // unknown base), and messages counted without their size (a datatype
  // without a layout).
  uint64_t unknown_comm_calls[kMatrixKinds] = {0, 0};
  uint64_t unresolved[kMatrixKinds] = {0, 0};
  uint64_t unsized[kMatrixKinds] = {0, 0};
  // Calls of collectives without a logical pattern here (neighbour
  // collectives), by function name.
  std::map<std::string, uint64_t> uncounted_calls;

  SparseMatrix total(MatrixKind kind) const;
};

} // namespace pilgrim::stats
