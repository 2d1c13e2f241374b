#include "signature_table.h"

namespace pilgrim::rt {

// A 64-bit multiply-mix hash over 8-byte words; signatures are short.
uint64_t hash_bytes(const uint8_t *p, size_t n) {
  const uint64_t k = 0x9E3779B97F4A7C15ull;
  uint64_t h = 0x243F6A8885A308D3ull ^ (n * k);
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    h = (h ^ w) * k;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  uint64_t w = 0;
  std::memcpy(&w, p, n);
  h = (h ^ w) * k;
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h;
}

}  // namespace pilgrim::rt
