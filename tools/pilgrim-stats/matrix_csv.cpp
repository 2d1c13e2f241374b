#include "matrix_csv.h"

#include <string>

namespace pilgrim::stats {

namespace {

// A CSV field: quoted when it holds a comma, a quote or a space.
std::string csv_field(const std::string &s) {
  if (s.find_first_of(",\" ") == std::string::npos)
    return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

void print_rows(TextOutput &out, const char *kind, const std::string &comm, const SparseMatrix &m) {
  const std::string prefix = std::string(kind) + "," + csv_field(comm) + ",";
  for (const auto &kv : m.sorted())
    out << prefix << std::to_string(kv.first.first) << ',' << std::to_string(kv.first.second) << ','
        << std::to_string(kv.second.messages) << ',' << std::to_string(kv.second.bytes) << '\n';
}

} // namespace

void print_matrix_csv(TextOutput &out, const CommunicationMatrix &m) {
  out << "kind,communicator,sender,receiver,messages,bytes\n";
  for (int k = 0; k < kMatrixKinds; ++k) {
    const auto kind = static_cast<MatrixKind>(k);
    print_rows(out, matrix_kind_name(kind), "all", m.total(kind));
    for (size_t c = 0; c < m.by_comm[k].size(); ++c)
      print_rows(out, matrix_kind_name(kind), m.comm_names[c], m.by_comm[k][c]);
  }
}

std::string matrix_notes(const CommunicationMatrix &m) {
  std::string notes;
  const char *what[kMatrixKinds] = {"point-to-point messages", "collective messages"};
  const char *calls[kMatrixKinds] = {"point-to-point sends", "collectives"};
  for (int k = 0; k < kMatrixKinds; ++k) {
    if (m.unknown_comm_calls[k])
      notes += std::to_string(m.unknown_comm_calls[k]) + " " + calls[k] +
               " on a communicator whose members the trace does not record are not in the "
               "matrix\n";
    if (m.unresolved[k])
      notes += std::to_string(m.unresolved[k]) + " " + what[k] +
               " whose receiver is not a known world rank are not in the matrix\n";
    if (m.unsized[k])
      notes += std::to_string(m.unsized[k]) + " " + what[k] +
               " of unknown size are counted with 0 bytes\n";
  }
  for (const auto &kv : m.uncounted_calls)
    notes += std::to_string(kv.second) + " calls of " + kv.first +
             " are not in the matrix (no logical pattern, docs/STATS.md)\n";
  return notes;
}

} // namespace pilgrim::stats
