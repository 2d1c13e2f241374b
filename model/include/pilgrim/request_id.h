// A request's symbolic id. The runtime draws request ids from one pool per
// call signature (the signature with the created request left out), pools
// numbered on each rank in the order their first request was created, and
// within a pool the smallest free slot. The id stored in the trace (user
// handle code 2u + 2 of kind Request) is the Cantor pairing of the two:
// unique across pools, and small. Readers print the pair (docs/DUMP.md).
#pragma once

#include <cstdint>
#include <string>

namespace pilgrim {

struct RequestId {
  uint64_t pool = 0;
  uint64_t slot = 0;
};

// u = (pool + slot)(pool + slot + 1) / 2 + slot. It fits 64 bits while
// pool + slot stays below 6,074,000,999: far beyond the pools (distinct
// calls) and slots (requests outstanding at once) a rank can hold.
inline uint64_t request_id_code(uint32_t pool, uint32_t slot) {
  const uint64_t d = static_cast<uint64_t>(pool) + slot;
  return (d % 2 == 0 ? (d / 2) * (d + 1) : d * ((d + 1) / 2)) + slot;
}

// The pool and slot of any 64-bit id u (the inverse of request_id_code).
RequestId request_id_parts(uint64_t u);

// "P.S", as in req#P.S.
std::string request_id_text(uint64_t u);

} // namespace pilgrim
