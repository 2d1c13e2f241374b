// The buffer-id pool (runtime/memory/address_registry.h) against a reference model
// on random acquire/release/pin sequences: while an address is in use it
// keeps one id; in-use addresses never share an id; a freed id is handed out
// again smallest first; pinned addresses are never freed.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "memory/address_registry.h"

namespace pilgrim::rt {
namespace {

const void *addr(uint64_t i) { return reinterpret_cast<const void *>(static_cast<uintptr_t>(0x1000 + 64 * i)); }

TEST(AddressRegistry, SameAddressSameIdWhileInUse) {
  AddressRegistry r;
  EXPECT_EQ(r.acquire(addr(1)), 0u);
  EXPECT_EQ(r.acquire(addr(2)), 1u);
  EXPECT_EQ(r.acquire(addr(1)), 0u); // two uses
  r.release(addr(1));
  EXPECT_EQ(r.acquire(addr(3)), 2u); // addr(1) is still in use
  r.release(addr(1));
  EXPECT_EQ(r.acquire(addr(4)), 0u); // now its id is free again
  r.release(addr(99));               // unknown: ignored
  EXPECT_EQ(r.in_use(), 3u);
}

TEST(AddressRegistry, PinnedAddressesKeepTheirId) {
  AddressRegistry r;
  EXPECT_EQ(r.pin(addr(1)), 0u);
  r.release(addr(1));
  r.release(addr(1));
  EXPECT_EQ(r.acquire(addr(2)), 1u);
  EXPECT_EQ(r.acquire(addr(1)), 0u);
}

TEST(AddressRegistry, MatchesReferenceModelOnRandomOperations) {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 50; ++round) {
    AddressRegistry r;
    struct Use {
      uint32_t id;
      uint64_t uses;
      bool pinned;
    };
    std::map<uint64_t, Use> model;
    std::set<uint32_t> free_ids;
    uint32_t next = 0;
    for (int step = 0; step < 20000; ++step) {
      const uint64_t a = rng() % 64;
      const int op = static_cast<int>(rng() % 10);
      auto it = model.find(a);
      if (op < 5 || (op < 6 && it == model.end())) { // acquire (or pin)
        const bool pin = op == 5;
        uint32_t want;
        if (it != model.end()) {
          want = it->second.id;
          ++it->second.uses;
          it->second.pinned |= pin;
        } else {
          if (!free_ids.empty()) {
            want = *free_ids.begin();
            free_ids.erase(free_ids.begin());
          } else {
            want = next++;
          }
          model[a] = Use{want, 1, pin};
        }
        ASSERT_EQ(pin ? r.pin(addr(a)) : r.acquire(addr(a)), want) << round << ":" << step;
      } else { // release
        r.release(addr(a));
        if (it != model.end() && !it->second.pinned && --it->second.uses == 0) {
          free_ids.insert(it->second.id);
          model.erase(it);
        }
      }
      ASSERT_EQ(r.in_use(), model.size());
    }
  }
}

} // namespace
} // namespace pilgrim::rt
