// An open-addressing hash map from 64-bit keys to 32-bit values with
// backward-shift deletion: inserts and erases allocate only when the table
// grows, so the steady state of a traced loop allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim::rt {

class FlatMap {
public:
  FlatMap() : slots_(16) {}

  const uint32_t *find(uint64_t key) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      const Slot &s = slots_[i];
      if (!s.used)
        return nullptr;
      if (s.key == key)
        return &s.value;
    }
  }
  uint32_t *find(uint64_t key) {
    return const_cast<uint32_t *>(static_cast<const FlatMap *>(this)->find(key));
  }
  // Inserts or overwrites.
  void set(uint64_t key, uint32_t value) {
    if ((size_ + 1) * 4 > slots_.size() * 3)
      grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = mix(key) & mask;; i = (i + 1) & mask) {
      Slot &s = slots_[i];
      if (!s.used) {
        s = {key, value, true};
        ++size_;
        return;
      }
      if (s.key == key) {
        s.value = value;
        return;
      }
    }
  }
  bool erase(uint64_t key) {
    size_t mask = slots_.size() - 1;
    size_t i = mix(key) & mask;
    for (;; i = (i + 1) & mask) {
      if (!slots_[i].used)
        return false;
      if (slots_[i].key == key)
        break;
    }
    // Backward-shift the cluster that follows.
    for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
      if (!slots_[j].used)
        break;
      size_t home = mix(slots_[j].key) & mask;
      bool movable = (i <= j) ? (home <= i || home > j) : (home <= i && home > j);
      if (movable) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].used = false;
    --size_;
    return true;
  }
  size_t size() const { return size_; }
  template <class F> void for_each(F f) const {
    for (const Slot &s : slots_)
      if (s.used)
        f(s.key, s.value);
  }
  size_t memory_bytes() const { return slots_.capacity() * sizeof(Slot); }

private:
  struct Slot {
    uint64_t key = 0;
    uint32_t value = 0;
    bool used = false;
  };
  static uint64_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
  }
  void grow() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{});
    size_ = 0;
    for (const Slot &s : old)
      if (s.used)
        set(s.key, s.value);
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace pilgrim::rt
