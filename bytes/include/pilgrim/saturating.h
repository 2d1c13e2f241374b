// Counts that stop at UINT64_MAX instead of wrapping: a grammar's repetition
// counts multiply, and a damaged trace may claim any of them.
#pragma once

#include <cstdint>

namespace pilgrim {

inline uint64_t sat_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

inline uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

} // namespace pilgrim
