// What the runtime knows of each RMA window: the caller's rank in the
// window's group, so that target ranks can be stored relative to it like
// point-to-point peers. Asked of MPI the first time a window is used
// (PMPI_Win_get_group + PMPI_Group_rank) and cached by handle value, so an
// RMA call costs one lookup, not an MPI call. The generated wrappers forget a
// window when MPI_Win_free releases it and when a create call returns its
// handle value (a value MPI may have recycled).
#pragma once

#include "common/flat_map.h"

#include <mpi.h>

#include <cstdint>

namespace pilgrim::rt {

class WindowRegistry {
public:
  // The caller's rank in the window's group; -1 for MPI_WIN_NULL or when MPI
  // cannot say.
  int rank_of(MPI_Win win);
  void forget(MPI_Win win);
  size_t memory_bytes() const { return map_.memory_bytes(); }

private:
  FlatMap map_; // handle key -> rank + 1 (0: unknown)
};

// The process's registry. Used under the same lock as the rest of a traced
// call (rt::Call).
WindowRegistry &window_registry();

// For the generated wrappers: windows a call created or freed.
void forget_windows(const MPI_Win *wins, int64_t n);

}  // namespace pilgrim::rt
