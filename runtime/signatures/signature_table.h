// Maps byte strings to dense indices 0, 1, 2, ... with open addressing and a
// precomputed 64-bit hash. The keys live in one arena; a lookup of a known
// key allocates nothing. Used for the call signature table and for the
// per-signature request pools.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace pilgrim::rt {

uint64_t hash_bytes(const uint8_t *p, size_t n);

class SignatureTable {
public:
  static constexpr uint32_t kNone = 0xffffffffu;

  SignatureTable() { slots_.assign(64, Slot{}); }

  // Index of `key`, inserting it if new (`inserted` tells which).
  uint32_t intern(const uint8_t *key, size_t n, bool &inserted) {
    uint64_t h = hash_bytes(key, n);
    size_t mask = slots_.size() - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      Slot &s = slots_[i];
      if (s.index == kEmpty) {
        inserted = true;
        s.hash = h;
        s.index = static_cast<uint32_t>(entries_.size());
        entries_.push_back({arena_.size(), static_cast<uint32_t>(n)});
        arena_.insert(arena_.end(), key, key + n);
        if (entries_.size() * 2 > slots_.size())
          rehash();
        return static_cast<uint32_t>(entries_.size() - 1);
      }
      if (s.hash == h && entries_[s.index].size == n &&
          std::memcmp(arena_.data() + entries_[s.index].offset, key, n) == 0) {
        inserted = false;
        return s.index;
      }
    }
  }

  size_t size() const { return entries_.size(); }
  std::string_view key(uint32_t index) const {
    const Entry &e = entries_[index];
    return {reinterpret_cast<const char *>(arena_.data() + e.offset), e.size};
  }
  size_t memory_bytes() const {
    return slots_.capacity() * sizeof(Slot) + entries_.capacity() * sizeof(Entry) +
           arena_.capacity();
  }

private:
  static constexpr uint32_t kEmpty = kNone;
  struct Slot {
    uint64_t hash = 0;
    uint32_t index = kEmpty;
  };
  struct Entry {
    size_t offset;
    uint32_t size;
  };
  void rehash() {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(old.size() * 2, Slot{});
    size_t mask = slots_.size() - 1;
    for (const Slot &s : old) {
      if (s.index == kEmpty)
        continue;
      size_t i = s.hash & mask;
      while (slots_[i].index != kEmpty)
        i = (i + 1) & mask;
      slots_[i] = s;
    }
  }
  std::vector<Slot> slots_;
  std::vector<Entry> entries_;
  std::vector<uint8_t> arena_;
};

}  // namespace pilgrim::rt
