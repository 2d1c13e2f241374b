// The pinned addresses of the process in address order, so that an absolute
// address the program hands to MPI as an integer (a datatype displacement
// taken with MPI_Get_address and used with MPI_BOTTOM, a lower bound) can be
// stored as (memory id, offset) instead of a number that means nothing in
// another run (docs/FORMAT.md §8.3, Address).
//
// An anchor is an address that has an id for the rest of the run: a pointer
// (MPI_Get_address's location, memory MPI allocated, an attribute value), a
// window's base, an attached buffer. A value v is coded against the anchor A
// with the largest A <= v when
//  - v >= kMinAddress: below 4 GiB a value is taken for a number (relative
//    displacements are small; position-independent executables, the default,
//    put code, data, heap, stack and mappings above it), and
//  - v - A < kReach: further away, v is more likely in another object than
//    in A's.
// Otherwise v is stored as it is. A value that is an address the same call
// has just pinned (MPI_Get_address's result for a new location) would be its
// own anchor; it is coded against the nearest other anchor below it within
// kLayoutWindow instead, when there is one, so that the trace keeps how the
// fields of a struct or neighbouring arrays lie, which a proxy rebuilds.
// Anchors are added when an address is first pinned, which is rare (a new
// MPI_Get_address location), never on the hot path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace pilgrim::rt {

class AddressAnchors {
public:
  static constexpr uint64_t kMinAddress = uint64_t{1} << 32;
  static constexpr uint64_t kReach = uint64_t{1} << 28; // 256 MiB
  // A value that is an address the same call pinned (MPI_Get_address's
  // result) is coded against the anchor nearest below it within this many
  // bytes, if any: the layout of memory the run takes addresses in.
  static constexpr uint64_t kLayoutWindow = 4096;

  void add(uint64_t address, uint32_t id) {
    const auto at =
        std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(address, uint32_t{0}));
    if (at != sorted_.end() && at->first == address)
      at->second = id;
    else
      sorted_.insert(at, {address, id});
  }

  // The anchor v is coded against: its id and v's offset from it.
  bool find(uint64_t v, uint32_t &id, uint64_t &offset) const {
    return nearest(v, false, kReach, id, offset);
  }

  // The anchor nearest below v (not v itself), less than `window` bytes
  // away: where an address a call has just pinned lies in memory the run
  // already knows (the fields of a struct taken one by one).
  bool find_below(uint64_t v, uint64_t window, uint32_t &id, uint64_t &offset) const {
    return nearest(v, true, window, id, offset);
  }

  size_t size() const { return sorted_.size(); }
  size_t memory_bytes() const { return sorted_.capacity() * sizeof(sorted_[0]); }

private:
  // The highest anchor at or below v (strictly below when `below`), less
  // than `window` bytes away.
  bool nearest(uint64_t v, bool below, uint64_t window, uint32_t &id, uint64_t &offset) const {
    if (v < kMinAddress)
      return false;
    auto at = below ? std::lower_bound(sorted_.begin(), sorted_.end(),
                                       std::make_pair(v, uint32_t{0})) // first anchor >= v
                    : std::upper_bound(sorted_.begin(), sorted_.end(),
                                       std::make_pair(v, UINT32_MAX)); // first anchor > v
    if (at == sorted_.begin())
      return false;
    --at;
    if (v - at->first >= window)
      return false;
    id = at->second;
    offset = v - at->first;
    return true;
  }

  std::vector<std::pair<uint64_t, uint32_t>> sorted_; // address -> id, by address
};

} // namespace pilgrim::rt
