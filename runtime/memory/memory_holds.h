// Memory whose address id outlives the call that names it, until the call
// that ends it:
//  - memory MPI allocated for the program (a pointer output with a byte size
//    in the sidecar: MPI_Alloc_mem's baseptr, and MPI_Win_allocate's,
//    MPI_Win_allocate_shared's and MPI_Win_shared_query's): until
//    MPI_Free_mem of it, or for a call that names a window, until that
//    window is freed;
//  - the memory of a window MPI_Win_create makes: until the window is freed.
// Each hold is one use of the address in the AddressRegistry, so the id is
// free again once the memory is, and the next allocation takes the smallest
// free id whatever address MPI hands out: a program that frees and allocates
// again records the same ids whether or not MPI returns the same addresses,
// and so does its proxy. Memory of zero bytes is held by nothing: MPI may
// return NULL or any address for it (Open MPI's MPI_Win_allocate does either
// at random), and that must not move the ids of the calls that follow.
#pragma once

#include "address_registry.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim::rt {

class MemoryHolds {
public:
  // The use of `p` that its call acquired becomes a hold: of the window
  // with handle key `window` when `has_window`, else of the allocation
  // (ended by end_allocation). False when that hold exists already (the
  // caller releases the use).
  bool hold(const void *p, bool has_window, uint64_t window) {
    for (const Hold &h : holds_)
      if (h.p == p && h.has_window == has_window && h.window == window)
        return false;
    holds_.push_back({p, window, has_window});
    return true;
  }
  // MPI_Free_mem(p): the allocation's hold ends.
  void end_allocation(AddressRegistry &addresses, const void *p) {
    for (size_t i = 0; i < holds_.size(); ++i)
      if (holds_[i].p == p && !holds_[i].has_window) {
        addresses.release(p);
        holds_.erase(holds_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }
  // The window was freed: every hold of its memory ends.
  void end_window(AddressRegistry &addresses, uint64_t window) {
    size_t kept = 0;
    for (const Hold &h : holds_) {
      if (h.has_window && h.window == window)
        addresses.release(h.p);
      else
        holds_[kept++] = h;
    }
    holds_.resize(kept);
  }
  size_t memory_bytes() const { return holds_.capacity() * sizeof(Hold); }

private:
  struct Hold {
    const void *p;
    uint64_t window;
    bool has_window;
  };
  std::vector<Hold> holds_; // few: the live allocations and windows
};

} // namespace pilgrim::rt
