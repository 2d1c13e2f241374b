#include "window_registry.h"

#include "call_context.h"
#include "memory/dynamic_windows.h"
#include "common/handle_key.h"

namespace pilgrim::rt {

int WindowRegistry::rank_of(MPI_Win win) {
  if (win == MPI_WIN_NULL)
    return -1;
  const uint64_t key = handle_key(win);
  if (const uint32_t *v = map_.find(key))
    return static_cast<int>(*v) - 1;
  int rank = MPI_UNDEFINED;
  MPI_Group group = MPI_GROUP_NULL;
  if (PMPI_Win_get_group(win, &group) == MPI_SUCCESS && group != MPI_GROUP_NULL) {
    if (PMPI_Group_rank(group, &rank) != MPI_SUCCESS)
      rank = MPI_UNDEFINED;
    PMPI_Group_free(&group);
  }
  if (rank < 0 || rank == MPI_UNDEFINED)
    rank = -1;
  map_.set(key, static_cast<uint32_t>(rank + 1));
  return rank;
}

void WindowRegistry::forget(MPI_Win win) { map_.erase(handle_key(win)); }

WindowRegistry &window_registry() {
  static WindowRegistry registry;
  return registry;
}

void forget_windows(const MPI_Win *wins, int64_t n) {
  for (int64_t i = 0; wins && i < n; ++i) {
    window_registry().forget(wins[i]);
    dynamic_windows().forget(wins[i]);
  }
}

RankCtx win_ctx(MPI_Win win) { return {window_registry().rank_of(win)}; }

}  // namespace pilgrim::rt
