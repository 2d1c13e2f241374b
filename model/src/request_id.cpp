#include "pilgrim/request_id.h"

#include <cmath>

namespace pilgrim {

namespace {

// Whether the triangular number d(d + 1)/2 is at most u (false on overflow).
bool triangle_at_most(uint64_t d, uint64_t u) {
  uint64_t a = d, b = d + 1;
  if (a % 2 == 0)
    a /= 2;
  else
    b /= 2;
  uint64_t t;
  return !__builtin_mul_overflow(a, b, &t) && t <= u;
}

} // namespace

RequestId request_id_parts(uint64_t u) {
  // d is the largest integer with d(d + 1)/2 <= u, about sqrt(2u); the
  // floating-point estimate is off by at most a few units, fixed here.
  auto d = static_cast<uint64_t>((std::sqrt(8.0 * static_cast<double>(u) + 1.0) - 1.0) / 2.0);
  while (d > 0 && !triangle_at_most(d, u))
    --d;
  while (triangle_at_most(d + 1, u))
    ++d;
  const uint64_t base = d % 2 == 0 ? (d / 2) * (d + 1) : d * ((d + 1) / 2);
  RequestId id;
  id.slot = u - base;
  id.pool = d - id.slot;
  return id;
}

std::string request_id_text(uint64_t u) {
  const RequestId id = request_id_parts(u);
  return std::to_string(id.pool) + "." + std::to_string(id.slot);
}

} // namespace pilgrim
