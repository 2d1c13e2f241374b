// LEB128 varints and zigzag mapping: the integer encoding used throughout the
// trace format (docs/FORMAT.md, "Conventions"). Header-only, no allocation:
// the runtime's hot path writes signatures with these into a preallocated
// buffer.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim {

// A uint64 takes at most 10 LEB128 bytes.
constexpr size_t kMaxVarintBytes = 10;

// Signed -> unsigned: 0, -1, 1, -2, 2 ... -> 0, 1, 2, 3, 4 ...
constexpr uint64_t zigzag_encode(int64_t v) noexcept {
  return v < 0 ? ~(static_cast<uint64_t>(v) << 1) : (static_cast<uint64_t>(v) << 1);
}

constexpr int64_t zigzag_decode(uint64_t u) noexcept {
  return (u & 1) ? static_cast<int64_t>(~(u >> 1)) : static_cast<int64_t>(u >> 1);
}

// Number of bytes put_varint writes for `v` (1..10).
constexpr size_t varint_size(uint64_t v) noexcept {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Writes `v` as unsigned LEB128 (7 bits per byte, least significant group
// first, high bit set on every byte but the last) and advances `p`. The
// caller guarantees kMaxVarintBytes of room.
inline void put_varint(uint8_t *&p, uint64_t v) noexcept {
  while (v >= 0x80) {
    *p++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<uint8_t>(v);
}

// varint(zigzag(v)).
inline void put_svarint(uint8_t *&p, int64_t v) noexcept { put_varint(p, zigzag_encode(v)); }

} // namespace pilgrim
