// Everything a reader needs to resolve one rank's relative and Cartesian
// rank codes: its COMMS table, its window ranks and its communicators'
// grids, the last two derived from its CST.
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/call_context.h"

namespace pilgrim {

struct RankContext {
  CallContext ctx; // points into this object: not copyable
  std::vector<WindowRank> windows;
  std::vector<CartTopology> carts;

  RankContext(const Trace &trace, uint32_t rank);
  RankContext(const RankContext &) = delete;
  RankContext &operator=(const RankContext &) = delete;
};

} // namespace pilgrim
