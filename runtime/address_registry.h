// Symbolic ids for addresses (buffers, opaque pointers, callbacks). Until
// memory tracking lands, an address keeps its id for the whole run: the same
// address always gives the same id.
#pragma once

#include "flat_map.h"

#include <cstdint>

namespace pilgrim::rt {

class AddressRegistry {
public:
  uint32_t id(const void *p) {
    uint64_t key = reinterpret_cast<uintptr_t>(p);
    if (const uint32_t *v = map_.find(key))
      return *v;
    uint32_t id = next_++;
    map_.set(key, id);
    return id;
  }
  void add_predefined(const void *p, uint32_t index) {
    predefined_.set(reinterpret_cast<uintptr_t>(p), index);
  }
  const uint32_t *predefined(const void *p) const {
    return predefined_.find(reinterpret_cast<uintptr_t>(p));
  }
  size_t memory_bytes() const { return map_.memory_bytes() + predefined_.memory_bytes(); }

private:
  FlatMap map_, predefined_;
  uint32_t next_ = 0;
};

}  // namespace pilgrim::rt
