// Absolute addresses coded against the pinned addresses
// (runtime/memory/address_anchors.h, docs/FORMAT.md §8.3 Address): the highest
// pinned address at or below the value, within kReach, for values from
// kMinAddress on; and the registry making an address an anchor when it is
// first pinned, not when it is only in use.
#include <gtest/gtest.h>

#include "memory/address_registry.h"

namespace pilgrim::rt {
namespace {

constexpr uint64_t kBase = uint64_t{0x7ffc} << 32; // where a stack might be

bool code(const AddressAnchors &a, uint64_t v, uint32_t &id, uint64_t &offset) {
  id = UINT32_MAX;
  offset = UINT64_MAX;
  return a.find(v, id, offset);
}

TEST(AddressAnchors, NearestAnchorAtOrBelow) {
  AddressAnchors a;
  a.add(kBase + 64, 7);
  a.add(kBase, 3); // added out of order
  a.add(kBase + 1024, 9);
  uint32_t id;
  uint64_t off;
  ASSERT_TRUE(code(a, kBase, id, off));
  EXPECT_EQ(id, 3u);
  EXPECT_EQ(off, 0u);
  ASSERT_TRUE(code(a, kBase + 63, id, off));
  EXPECT_EQ(id, 3u);
  EXPECT_EQ(off, 63u);
  ASSERT_TRUE(code(a, kBase + 64, id, off));
  EXPECT_EQ(id, 7u);
  EXPECT_EQ(off, 0u);
  ASSERT_TRUE(code(a, kBase + 2000, id, off));
  EXPECT_EQ(id, 9u);
  EXPECT_EQ(off, 976u);
  EXPECT_FALSE(code(a, kBase - 1, id, off)); // below every anchor
}

TEST(AddressAnchors, NumbersAndFarValuesAreNotAddresses) {
  AddressAnchors a;
  a.add(0x1000, 0); // a small pinned value (an attribute holding a number)
  a.add(kBase, 1);
  uint32_t id;
  uint64_t off;
  EXPECT_FALSE(code(a, 0x1008, id, off)); // below kMinAddress: a number
  EXPECT_FALSE(code(a, 16, id, off));
  ASSERT_TRUE(code(a, kBase + AddressAnchors::kReach - 1, id, off));
  EXPECT_EQ(id, 1u);
  EXPECT_FALSE(code(a, kBase + AddressAnchors::kReach, id, off)); // too far: another object
  a.add(kBase, 5); // the same address pinned again keeps one entry
  EXPECT_EQ(a.size(), 2u);
}

// A new address's place in known memory: the nearest other anchor below
// it, within the window (MPI_Get_address's result for a new location).
TEST(AddressAnchors, NewAddressInKnownMemory) {
  AddressAnchors a;
  a.add(kBase, 0);     // a struct's first field
  a.add(kBase + 8, 1); // its second, just pinned
  uint32_t id = UINT32_MAX;
  uint64_t off = UINT64_MAX;
  ASSERT_TRUE(a.find_below(kBase + 8, AddressAnchors::kLayoutWindow, id, off));
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(off, 8u);
  EXPECT_FALSE(a.find_below(kBase, AddressAnchors::kLayoutWindow, id, off)); // nothing below
  a.add(kBase + 8192, 2);
  EXPECT_FALSE(a.find_below(kBase + 8192, AddressAnchors::kLayoutWindow, id, off)); // too far
  EXPECT_FALSE(a.find_below(0x2000, AddressAnchors::kLayoutWindow, id, off));       // a number
}

TEST(AddressAnchors, RegistryAnchorsPinnedAddressesOnly) {
  AddressRegistry r;
  const void *stack = reinterpret_cast<const void *>(static_cast<uintptr_t>(kBase + 4096));
  const void *heap = reinterpret_cast<const void *>(static_cast<uintptr_t>(kBase + 8192));
  EXPECT_EQ(r.acquire(heap), 0u); // a buffer in use: not an anchor
  uint32_t id;
  uint64_t off;
  EXPECT_FALSE(code(r.anchors(), kBase + 8192 + 8, id, off));
  EXPECT_EQ(r.pin(stack), 1u); // MPI_Get_address's location
  ASSERT_TRUE(code(r.anchors(), kBase + 8192 + 8, id, off));
  EXPECT_EQ(id, 1u); // the nearest anchor below, the buffer not being one
  EXPECT_EQ(off, 4096u + 8u);
  EXPECT_EQ(r.pin(heap), 0u); // the buffer pinned: it keeps its id and anchors
  ASSERT_TRUE(code(r.anchors(), kBase + 8192 + 8, id, off));
  EXPECT_EQ(id, 0u);
  EXPECT_EQ(off, 8u);
  EXPECT_EQ(r.pin(heap), 0u);
  EXPECT_EQ(r.anchors().size(), 2u);
}

} // namespace
} // namespace pilgrim::rt
