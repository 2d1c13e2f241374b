// The communicator tables of a subtree of ranks, as the merge carries them up
// the tree: each distinct table once, with each rank's rank in a
// communicator stored relative to its world rank (a Cartesian grid or a dup
// of MPI_COMM_WORLD gives every rank the same table), plus ranges of ranks
// per table. Its size follows the distinct tables, not the number of ranks.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "pilgrim/byte_io.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

class CommTables {
public:
  // One rank's table (no entry when it has no user communicators).
  void add_rank(uint32_t rank, const std::vector<CommInfo> &comms);
  // Folds in another subtree's tables (its ranks disjoint from ours).
  void absorb(const CommTables &other);

  void serialize(ByteWriter &w) const;
  // Throws TraceError on malformed bytes.
  static CommTables parse(ByteReader &r);

  // Every rank's table with absolute ranks, sorted by rank (MergedTrace::comms).
  std::vector<RankComms> expand() const;
  size_t memory_bytes() const;

private:
  uint32_t intern(const std::vector<CommInfo> &relative);

  std::vector<std::vector<CommInfo>> tables_;      // ranks relative to the world rank
  std::unordered_map<std::string, uint32_t> index_; // a table's bytes -> its index
  std::vector<RankRange> ranges_;                  // RankRange::grammar is the table index
};

} // namespace pilgrim
