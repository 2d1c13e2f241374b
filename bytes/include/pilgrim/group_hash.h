// The hash that names a communicator's group in a trace (CommInfo::group,
// docs/FORMAT.md §7.6): FNV-1a, 32 bits, over the group's size and then the
// world rank of each of its ranks in order, each as 4 bytes little-endian (a
// member outside MPI_COMM_WORLD, from another job, as 0xFFFFFFFF); a result
// of 0, which means "not recorded", becomes 1. The runtime computes it when a
// communicator is created; readers recompute it to check the members they
// gathered.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim {

constexpr uint32_t kOutsideWorld = 0xFFFFFFFFu;

class GroupHash {
public:
  explicit GroupHash(uint32_t size) { add(size); }
  void add(uint32_t world_rank) {
    for (int i = 0; i < 4; ++i) {
      h_ ^= (world_rank >> (8 * i)) & 0xFFu;
      h_ *= 16777619u;
    }
  }
  uint32_t value() const { return h_ ? h_ : 1; }

private:
  uint32_t h_ = 2166136261u;
};

} // namespace pilgrim
