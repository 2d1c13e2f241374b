#include "pilgrim/rank_context.h"

namespace pilgrim {

RankContext::RankContext(const Trace &trace, uint32_t rank) {
  const RankView v = trace.rank(rank);
  ctx.world_rank = rank;
  ctx.comms = v.comms;
  // Only this rank's own creations say which rank it has in a window and
  // which grid its communicators have.
  windows = window_ranks(trace, *v.cst, ctx);
  ctx.windows = &windows;
  carts = cart_topologies(trace, *v.cst);
  ctx.carts = &carts;
}

} // namespace pilgrim
