// Target displacements into dynamic windows (MPI_Win_create_dynamic): there
// a displacement is an absolute address in the target process, which the
// origin got from the target (MPI_Get_address there, then a message or the
// window's own data). The origin cannot tell which of the target's attached
// regions it points into, so it records a placeholder (docs/FORMAT.md §8.3,
// Address code 1) with the target's world rank and the value, and every rank
// records the regions it attaches (base, size, the base's memory id). At
// MPI_Finalize the ranks exchange their regions (one allgather, only in runs
// that attached or accessed one) and each placeholder becomes the target's
// memory id plus an offset, or the value itself when no region of the
// target holds it; the CST and the verify log are rewritten before the
// merge. A memory id keeps its address for the whole run, so a region that
// is detached and attached again keeps its id, and no global clock is needed.
#pragma once

#include "common/flat_map.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::rt {

class DynamicWindows {
public:
  // Whether `win` was created by MPI_Win_create_dynamic (asked of MPI once
  // per window, then cached until forget()).
  bool is_dynamic(MPI_Win win);
  // The MPI_COMM_WORLD rank of rank `target` of win's group; -1 if none.
  int world_rank(MPI_Win win, int target);
  // A window was freed, or a create returned a (perhaps recycled) handle.
  void forget(MPI_Win win);

  // The placeholder index of displacement `v` at world rank `world`.
  uint64_t placeholder(int world, int64_t v);
  // This rank attached [base, base + bytes) to a dynamic window; `id` is
  // base's memory id.
  void note_attach(const void *base, int64_t bytes, uint32_t id);

  // MPI_Finalize, collectively over `comm` (a dup of MPI_COMM_WORLD):
  // resolves every placeholder. Costs one allreduce of an int where no rank
  // attached or accessed a dynamic window.
  void resolve(MPI_Comm comm);
  // Replaces the placeholders of one signature by what resolve() found;
  // false (and `sig` unchanged) when it has none.
  bool rewrite(std::string &sig) const;
  // The same for every record of a verify log (varint(length) signature ...).
  void rewrite_log(std::vector<uint8_t> &log) const;

  size_t memory_bytes() const;

private:
  struct WinFacts {
    bool dynamic = false;
    std::vector<int> world; // world rank of each rank of the group; empty until asked
  };
  struct Placeholder {
    int world;
    int64_t value;
  };
  struct Region {
    uint64_t base, bytes, id;
  };
  WinFacts &facts(MPI_Win win);

  FlatMap windows_; // handle key -> index in facts_
  std::vector<WinFacts> facts_;
  std::vector<uint32_t> free_facts_;
  std::vector<FlatMap> by_target_; // per world rank: value -> placeholder index
  std::vector<Placeholder> placeholders_;
  std::vector<Region> attached_;
  std::vector<std::string> resolved_; // per placeholder: the Address element's bytes
};

// The process's registry. Used under the same lock as the rest of a traced
// call (rt::Call), and at MPI_Finalize.
DynamicWindows &dynamic_windows();

} // namespace pilgrim::rt
