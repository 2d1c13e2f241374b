// Symbolic ids for addresses (buffers and opaque pointers share one id
// space; callbacks have their own registry). Until memory tracking lands, an
// address is "in use" while MPI may touch it:
//  - a buffer of a blocking call, for the duration of the call;
//  - a buffer of a call that creates a request, until that request is
//    completed and freed (persistent requests: until MPI_Request_free);
//  - a buffer MPI keeps after the call returns (a window's base, an attached
//    buffer) and any opaque pointer, for the rest of the run (pinned).
// The same address gives the same id while it is in use (uses are counted),
// and an id is handed out again, smallest first, once its address is no
// longer in use, so a loop over fresh buffers sees the same ids in every
// iteration.
#pragma once

#include "address_anchors.h"
#include "common/flat_map.h"
#include "common/symbol_pool.h"

#include <cstdint>
#include <vector>

namespace pilgrim::rt {

class AddressRegistry {
public:
  // One more use of p; its id.
  uint32_t acquire(const void *p) {
    const uint64_t key = reinterpret_cast<uintptr_t>(p);
    if (const uint32_t *e = map_.find(key)) {
      Entry &x = entries_[*e];
      if (x.uses != kPinned)
        ++x.uses;
      return x.id;
    }
    uint32_t e;
    if (!free_entries_.empty()) {
      e = free_entries_.back();
      free_entries_.pop_back();
    } else {
      e = static_cast<uint32_t>(entries_.size());
      entries_.emplace_back();
    }
    entries_[e] = Entry{pool_.acquire(), 1};
    map_.set(key, e);
    return entries_[e].id;
  }
  // p stays in use for the rest of the run; its id. A newly pinned address
  // becomes an anchor (address_anchors.h).
  uint32_t pin(const void *p) {
    const uint32_t id = acquire(p);
    const uint64_t key = reinterpret_cast<uintptr_t>(p);
    Entry &x = entries_[*map_.find(key)];
    if (x.uses != kPinned) {
      x.uses = kPinned;
      anchors_.add(key, id);
    }
    return id;
  }
  // The pinned addresses, to code absolute addresses against.
  const AddressAnchors &anchors() const { return anchors_; }
  // One use of p ended; its id is free again when no use is left.
  void release(const void *p) {
    const uint64_t key = reinterpret_cast<uintptr_t>(p);
    const uint32_t *e = map_.find(key);
    if (!e)
      return;
    const uint32_t index = *e;
    Entry &x = entries_[index];
    if (x.uses == kPinned || --x.uses > 0)
      return;
    pool_.release(x.id);
    map_.erase(key);
    free_entries_.push_back(index);
  }
  size_t in_use() const { return pool_.in_use(); }

  void add_predefined(const void *p, uint32_t index) {
    predefined_.set(reinterpret_cast<uintptr_t>(p), index);
  }
  const uint32_t *predefined(const void *p) const {
    return predefined_.find(reinterpret_cast<uintptr_t>(p));
  }
  size_t memory_bytes() const {
    return map_.memory_bytes() + predefined_.memory_bytes() +
           entries_.capacity() * sizeof(Entry) + free_entries_.capacity() * sizeof(uint32_t) +
           pool_.memory_bytes() + anchors_.memory_bytes();
  }

private:
  static constexpr uint32_t kPinned = UINT32_MAX;
  struct Entry {
    uint32_t id = 0;
    uint32_t uses = 0; // kPinned: never released
  };
  FlatMap map_, predefined_; // address -> entry; predefined address -> index
  std::vector<Entry> entries_;
  std::vector<uint32_t> free_entries_;
  SymbolPool pool_;
  AddressAnchors anchors_;
};

}  // namespace pilgrim::rt
