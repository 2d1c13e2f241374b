#include "request_registry.h"

#include "pilgrim/request_id.h"

namespace pilgrim::rt {

uint32_t RequestRegistry::new_entry() {
  if (!free_entries_.empty()) {
    uint32_t e = free_entries_.back();
    free_entries_.pop_back();
    return e;
  }
  entries_.emplace_back();
  return static_cast<uint32_t>(entries_.size() - 1);
}

void RequestRegistry::link(uint32_t e) {
  Entry &x = entries_[e];
  x.next = kNone;
  x.live = true;
  x.claimed = false;
  if (uint32_t *head = heads_.find(x.key)) {
    // Append at the tail: the oldest request with this value comes first.
    uint32_t i = *head;
    while (entries_[i].next != kNone)
      i = entries_[i].next;
    entries_[i].next = e;
  } else {
    heads_.set(x.key, e);
  }
}

uint64_t RequestRegistry::create(uint64_t key, const void *where, const uint8_t *sig, size_t n,
                                 const ReqInfo &info, const void *const *held, int nheld) {
  uint32_t pool = kOffPool;
  if (!info.off) {
    bool inserted;
    pool = pool_keys_.intern(sig, n, inserted);
    if (inserted)
      pools_.emplace_back();
  }
  uint32_t e = new_entry();
  Entry &x = entries_[e];
  x.key = key;
  x.where = where;
  x.pool = pool;
  x.slot = pool_(pool).acquire();
  x.id = request_id_code(pool, x.slot);
  x.info = info;
  x.nheld = 0;
  for (int i = 0; i < nheld && i < 4; ++i)
    x.held[x.nheld++] = held[i];
  link(e);
  return x.id;
}

uint32_t RequestRegistry::adopt(uint64_t key, const void *where) {
  // Unknown requests share one pool keyed by the empty signature.
  static const uint8_t kNoSignature = 0;
  bool inserted;
  uint32_t pool = pool_keys_.intern(&kNoSignature, 0, inserted);
  if (inserted)
    pools_.emplace_back();
  uint32_t e = new_entry();
  Entry &x = entries_[e];
  x.key = key;
  x.where = where;
  x.pool = pool;
  x.slot = pools_[pool].acquire();
  x.id = request_id_code(pool, x.slot);
  x.info = ReqInfo{};
  x.nheld = 0;
  link(e);
  return e;
}

uint32_t RequestRegistry::find(uint64_t key, const void *where) {
  const uint32_t *head = heads_.find(key);
  if (!head)
    return kNone;
  uint32_t first_free = kNone;
  for (uint32_t i = *head; i != kNone; i = entries_[i].next) {
    Entry &x = entries_[i];
    if (x.claimed)
      continue;
    if (x.where == where) {
      first_free = i;
      break;
    }
    if (first_free == kNone)
      first_free = i;
  }
  if (first_free != kNone) {
    entries_[first_free].claimed = true;
    claimed_.push_back(first_free);
  }
  return first_free;
}

void RequestRegistry::unclaim_all() {
  for (uint32_t e : claimed_)
    if (e < entries_.size())
      entries_[e].claimed = false;
  claimed_.clear();
}

void RequestRegistry::release(uint32_t e, AddressRegistry &buffers) {
  Entry &x = entries_[e];
  if (!x.live)
    return;
  for (int i = 0; i < x.nheld; ++i)
    buffers.release(x.held[i]);
  x.nheld = 0;
  uint32_t *head = heads_.find(x.key);
  if (head) {
    if (*head == e) {
      if (x.next == kNone)
        heads_.erase(x.key);
      else
        *head = x.next;
    } else {
      for (uint32_t i = *head; i != kNone; i = entries_[i].next)
        if (entries_[i].next == e) {
          entries_[i].next = x.next;
          break;
        }
    }
  }
  pool_(x.pool).release(x.slot);
  x.live = false;
  x.claimed = false;
  free_entries_.push_back(e);
}

size_t RequestRegistry::memory_bytes() const {
  return entries_.capacity() * sizeof(Entry) + heads_.memory_bytes() + pool_keys_.memory_bytes() +
         pools_.capacity() * sizeof(SymbolPool);
}

} // namespace pilgrim::rt
