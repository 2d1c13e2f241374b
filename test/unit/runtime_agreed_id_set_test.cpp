// AgreedIdSet: the per-kind id set behind communicator, window and file ids
// agreed across ranks (runtime/id_agreement.cpp). The members' bitmaps are
// OR-ed here by hand, as the allreduce would.
#include "common/agreed_id_set.h"

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

// The ids a member holds: every id handed out so far must be distinct.
void expect_distinct(std::vector<uint32_t> ids) {
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
}

// An agreement in flight among `members` (an idup): each holds and offers;
// resolve() later gives every member's id.
struct InFlight {
  std::vector<AgreedIdSet *> members;
  std::vector<Snapshot> snaps;
  uint64_t parent_code;
  InFlight(std::vector<AgreedIdSet *> m, uint64_t parent)
      : members(m), snaps(m.size()), parent_code(parent) {
    for (size_t i = 0; i < members.size(); ++i)
      members[i]->hold(snaps[i], AgreedIdSet::kPendingCandidates, true);
  }
  std::vector<uint32_t> resolve() {
    uint64_t any[kWords] = {}, max_overflow = 0;
    for (const Snapshot &s : snaps) {
      for (uint32_t w = 0; w < kWords; ++w)
        any[w] |= s.unavailable[w];
      max_overflow = std::max(max_overflow, s.overflow);
    }
    std::vector<uint32_t> ids;
    for (size_t i = 0; i < members.size(); ++i)
      ids.push_back(members[i]->choose_pending(snaps[i], any, max_overflow, parent_code));
    return ids;
  }
};

TEST(AgreedIdSet, InFlightBeyondTheBitmapNeverMeetsAnIdTakenMeanwhile) {
  // Both bitmaps full; a has made 5 more agreements than b. An idup over
  // {a, b} is in flight while b makes 10 agreements alone: with one counter,
  // b's 6th took the value the idup resolved to (a's proposal), and b held
  // two communicators with one id.
  AgreedIdSet a, b;
  for (uint32_t i = 0; i < AgreedIdSet::kBitmapIds + 5; ++i)
    a.choose_alone();
  std::vector<uint32_t> b_ids;
  for (uint32_t i = 0; i < AgreedIdSet::kBitmapIds; ++i)
    b_ids.push_back(b.choose_alone());
  InFlight idup({&a, &b}, 1);
  for (int i = 0; i < 10; ++i)
    b_ids.push_back(b.choose_alone());
  const std::vector<uint32_t> ids = idup.resolve();
  EXPECT_EQ(ids[0], ids[1]);
  EXPECT_GE(ids[0], AgreedIdSet::kPendingFirst);
  b_ids.push_back(ids[1]);
  expect_distinct(b_ids);
}

TEST(AgreedIdSet, InFlightTogetherOnOtherParentsGetOtherIds) {
  // b is in two idups at once, one with a, one with c, on different parents;
  // a and c have made different numbers of idups before. Neither bitmap has
  // a common candidate.
  AgreedIdSet a, b, c;
  for (uint32_t i = 0; i < AgreedIdSet::kBitmapIds; ++i) {
    a.choose_alone();
    b.choose_alone();
    c.choose_alone();
  }
  for (int i = 0; i < 3; ++i) // a's earlier idups, alone with d
    InFlight({&a}, 5).resolve();
  InFlight ab({&a, &b}, 7), bc({&b, &c}, 9);
  for (int i = 0; i < 2; ++i) // c's, later, before it joins
    InFlight({&c}, 5).resolve();
  InFlight cb({&c, &b}, 9); // another on bc's parent: after bc on both
  const std::vector<uint32_t> x = ab.resolve(), y = bc.resolve(), z = cb.resolve();
  EXPECT_EQ(x[0], x[1]);
  EXPECT_EQ(y[0], y[1]);
  EXPECT_EQ(z[0], z[1]);
  expect_distinct({x[1], y[0], z[1]});
}

} // namespace
} // namespace pilgrim::rt
