// AgreedIdSet: the per-kind id set behind communicator, window and file ids
// agreed across ranks (runtime/id_agreement.cpp). The members' bitmaps are
// OR-ed here by hand, as the allreduce would.
#include "agreed_id_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace pilgrim::rt {
namespace {

using Snapshot = AgreedIdSet::Snapshot;
constexpr uint32_t kWords = AgreedIdSet::kWords;

// One agreement among `members`, as the OR/MAX allreduces would run it.
std::vector<uint32_t> agree(std::vector<AgreedIdSet *> members, int candidates = 64) {
  std::vector<Snapshot> snaps(members.size());
  uint64_t any[kWords] = {};
  uint64_t max_overflow = 0;
  for (size_t m = 0; m < members.size(); ++m) {
    members[m]->hold(snaps[m], candidates);
    for (uint32_t w = 0; w < kWords; ++w)
      any[w] |= snaps[m].unavailable[w];
    max_overflow = std::max(max_overflow, snaps[m].overflow);
  }
  std::vector<uint32_t> ids;
  for (size_t m = 0; m < members.size(); ++m)
    ids.push_back(members[m]->choose(snaps[m], any, max_overflow));
  return ids;
}

TEST(AgreedIdSet, SmallestIdFreeOnEveryMember) {
  AgreedIdSet a, b;
  EXPECT_EQ(a.choose_alone(), 0u); // a: {0}
  EXPECT_EQ(a.choose_alone(), 1u); // a: {0, 1}
  EXPECT_EQ(b.choose_alone(), 0u); // b: {0}
  EXPECT_EQ(agree({&a, &b}), (std::vector<uint32_t>{2, 2}));
  a.release(0);
  b.release(0);
  EXPECT_EQ(agree({&a, &b}), (std::vector<uint32_t>{0, 0})); // reused, smallest first
}

TEST(AgreedIdSet, CreateFreeLoopKeepsOneId) {
  AgreedIdSet a, b, c;
  b.choose_alone();
  for (int i = 0; i < 100; ++i) {
    std::vector<uint32_t> ids = agree({&a, &b, &c});
    ASSERT_EQ(ids, (std::vector<uint32_t>{1, 1, 1}));
    a.release(1);
    b.release(1);
    c.release(1);
  }
}

TEST(AgreedIdSet, HeldCandidatesAreNotHandedOut) {
  // An agreement in flight (a nonblocking idup) holds its candidates; one
  // that starts meanwhile, and local ids, draw above them.
  AgreedIdSet a, b;
  Snapshot pa, pb;
  a.hold(pa, AgreedIdSet::kPendingCandidates);
  b.hold(pb, AgreedIdSet::kPendingCandidates);
  std::vector<uint32_t> meanwhile = agree({&a, &b});
  EXPECT_EQ(meanwhile, (std::vector<uint32_t>{16, 16}));
  EXPECT_EQ(a.acquire_local(), 17u);
  uint64_t any[kWords];
  for (uint32_t w = 0; w < kWords; ++w)
    any[w] = pa.unavailable[w] | pb.unavailable[w];
  EXPECT_EQ(a.choose(pa, any, std::max(pa.overflow, pb.overflow)), 0u);
  EXPECT_EQ(b.choose(pb, any, std::max(pa.overflow, pb.overflow)), 0u);
  EXPECT_EQ(a.acquire_local(), 1u); // the other candidates are free again
}

TEST(AgreedIdSet, DisjointCandidatesFallBackToTheCounter) {
  // a uses the first 64 ids, b none: b's 64 candidates are all taken on a.
  AgreedIdSet a, b;
  for (int i = 0; i < 64; ++i)
    a.acquire_local();
  std::vector<uint32_t> ids = agree({&a, &b});
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_GE(ids[0], AgreedIdSet::kBitmapIds);
  std::vector<uint32_t> next = agree({&a, &b});
  EXPECT_EQ(next[0], next[1]);
  EXPECT_NE(next[0], ids[0]);
}

TEST(AgreedIdSet, FullBitmapUsesTheCounter) {
  AgreedIdSet a;
  for (uint32_t i = 0; i < AgreedIdSet::kBitmapIds; ++i)
    ASSERT_EQ(a.acquire_local(), i);
  const uint32_t first = a.choose_alone();
  EXPECT_GE(first, AgreedIdSet::kBitmapIds);
  EXPECT_GT(a.choose_alone(), first);
  a.release(5);
  EXPECT_EQ(a.choose_alone(), 5u);
}

}  // namespace
}  // namespace pilgrim::rt
