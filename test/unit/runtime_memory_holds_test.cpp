// Holds of memory MPI allocates or keeps (runtime/memory/memory_holds.h): an
// allocation's id lives until MPI_Free_mem, a window's memory until its
// window is freed, one hold per address and holder, and other uses of the
// same address are untouched.
#include <gtest/gtest.h>

#include "memory/memory_holds.h"

namespace pilgrim::rt {
namespace {

const void *addr(uint64_t i) {
  return reinterpret_cast<const void *>(static_cast<uintptr_t>(0x1000 + 64 * i));
}

TEST(MemoryHolds, AnAllocationKeepsItsIdUntilItIsFreed) {
  AddressRegistry a;
  MemoryHolds h;
  EXPECT_EQ(a.acquire(addr(1)), 0u); // MPI_Alloc_mem
  EXPECT_TRUE(h.hold(addr(1), false, 0));
  EXPECT_EQ(a.acquire(addr(2)), 1u); // a buffer while it is held
  a.release(addr(2));
  EXPECT_EQ(a.acquire(addr(1)), 0u); // MPI_Free_mem names it...
  h.end_allocation(a, addr(1));
  EXPECT_EQ(a.in_use(), 1u);
  a.release(addr(1)); // ...and its id is free once the call returns
  EXPECT_EQ(a.in_use(), 0u);
  EXPECT_EQ(a.acquire(addr(3)), 0u); // the next allocation, at another address, is id 0 again
  h.end_allocation(a, addr(9));      // never held: nothing happens
  EXPECT_EQ(a.in_use(), 1u);
}

TEST(MemoryHolds, AWindowHoldsItsMemoryUntilItIsFreed) {
  AddressRegistry a;
  MemoryHolds h;
  const uint64_t win = 0x77, other = 0x78;
  EXPECT_EQ(a.acquire(addr(1)), 0u); // MPI_Win_allocate's baseptr
  EXPECT_TRUE(h.hold(addr(1), true, win));
  EXPECT_EQ(a.acquire(addr(2)), 1u); // MPI_Win_shared_query: a neighbor's segment
  EXPECT_TRUE(h.hold(addr(2), true, win));
  EXPECT_EQ(a.acquire(addr(2)), 1u); // queried again: one hold is enough
  EXPECT_FALSE(h.hold(addr(2), true, win));
  a.release(addr(2));
  EXPECT_EQ(a.acquire(addr(3)), 2u); // another window's memory
  EXPECT_TRUE(h.hold(addr(3), true, other));
  h.end_window(a, win);
  EXPECT_EQ(a.in_use(), 1u);
  EXPECT_EQ(a.acquire(addr(4)), 0u);
  h.end_window(a, other);
  EXPECT_EQ(a.in_use(), 1u);
}

TEST(MemoryHolds, AnAllocationUsedAsAWindowLivesUntilBothEnd) {
  AddressRegistry a;
  MemoryHolds h;
  EXPECT_EQ(a.acquire(addr(1)), 0u); // MPI_Alloc_mem
  EXPECT_TRUE(h.hold(addr(1), false, 0));
  EXPECT_EQ(a.acquire(addr(1)), 0u); // MPI_Win_create over it
  EXPECT_TRUE(h.hold(addr(1), true, 0x77));
  h.end_window(a, 0x77);
  EXPECT_EQ(a.acquire(addr(2)), 1u); // still held by the allocation
  a.release(addr(2));
  h.end_allocation(a, addr(1));
  EXPECT_EQ(a.in_use(), 0u);
}

} // namespace
} // namespace pilgrim::rt
