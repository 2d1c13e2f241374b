#include "matrix_model.h"

#include "pilgrim/saturating.h"

namespace pilgrim::stats {

void SparseMatrix::add(uint32_t sender, uint32_t receiver, uint64_t messages, uint64_t bytes) {
  MatrixCell &c = cells_[uint64_t{sender} << 32 | receiver];
  c.messages = sat_add(c.messages, messages);
  c.bytes = sat_add(c.bytes, bytes);
}

void SparseMatrix::add(const SparseMatrix &other) {
  for (const auto &kv : other.cells_)
    add(static_cast<uint32_t>(kv.first >> 32), static_cast<uint32_t>(kv.first), kv.second.messages,
        kv.second.bytes);
}

std::map<std::pair<uint32_t, uint32_t>, MatrixCell> SparseMatrix::sorted() const {
  std::map<std::pair<uint32_t, uint32_t>, MatrixCell> out;
  for (const auto &kv : cells_)
    out[{static_cast<uint32_t>(kv.first >> 32), static_cast<uint32_t>(kv.first)}] = kv.second;
  return out;
}

const char *matrix_kind_name(MatrixKind kind) {
  return kind == MatrixKind::PointToPoint ? "p2p" : "collective";
}

SparseMatrix CommunicationMatrix::total(MatrixKind kind) const {
  SparseMatrix t;
  for (const SparseMatrix &m : by_comm[static_cast<int>(kind)])
    t.add(m);
  return t;
}

} // namespace pilgrim::stats
