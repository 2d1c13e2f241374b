// The one place that knows how handles look: pointers in Open MPI, integers
// in MPICH. Everything else sees a 64-bit key.
#pragma once

#include <cstdint>
#include <type_traits>

namespace pilgrim::rt {

template <class H> inline uint64_t handle_key(H h) {
  if constexpr (std::is_pointer_v<H>)
    return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(h));
  else
    return static_cast<uint64_t>(static_cast<uint32_t>(h));
}

template <class H> inline H handle_from_key(uint64_t k) {
  if constexpr (std::is_pointer_v<H>)
    return reinterpret_cast<H>(static_cast<uintptr_t>(k));
  else
    return static_cast<H>(static_cast<uint32_t>(k));
}

}  // namespace pilgrim::rt
