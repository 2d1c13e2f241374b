// Communicator groups (format version 5, docs/FORMAT.md §7.6.1): the
// RANK_COMMS codec round-trips them on random tables, older versions' layout
// drops them, and communicator_instances lists each communicator with its
// members as world ranks, also where disjoint or successive communicators
// share an id.
#include <gtest/gtest.h>

#include <random>

#include "pilgrim/communicator_instances.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/group_hash.h"
#include "pilgrim/merged_codec.h"

namespace pilgrim {
namespace {

uint32_t hash_of(std::initializer_list<uint32_t> world_ranks) {
  GroupHash h(static_cast<uint32_t>(world_ranks.size()));
  for (uint32_t w : world_ranks)
    h.add(w);
  return h.value();
}

CommInfo entry(uint64_t id, int32_t rank, int32_t size, uint32_t group, int32_t remote_size = -1,
               uint32_t remote_group = 0) {
  CommInfo c{id, rank, size, remote_size};
  c.group = group;
  c.remote_group = remote_group;
  return c;
}

TEST(CommunicatorGroups, RankCommsRoundTripsRandomTables) {
  std::mt19937_64 rng(12);
  for (int round = 0; round < 200; ++round) {
    const uint32_t nranks = 1 + static_cast<uint32_t>(rng() % 40);
    std::vector<RankComms> comms;
    for (uint32_t r = 0; r < nranks; ++r) {
      if (rng() % 4 == 0)
        continue; // no user communicators
      RankComms rc;
      rc.rank = r;
      const size_t n = 1 + rng() % 5;
      for (size_t k = 0; k < n; ++k) {
        const bool inter = rng() % 3 == 0;
        const int32_t size = 1 + static_cast<int32_t>(rng() % 50);
        // Few distinct values, so that tables repeat and merge into boxes.
        rc.comms.push_back(entry(rng() % 3, static_cast<int32_t>(rng() % 2 ? r : rng() % 50), size,
                                 static_cast<uint32_t>(rng() % 3 ? 7 : rng()),
                                 inter ? 1 + static_cast<int32_t>(rng() % 9) : -1,
                                 inter ? static_cast<uint32_t>(1 + rng() % 1000) : 0));
      }
      comms.push_back(std::move(rc));
    }
    EXPECT_EQ(parse_rank_comms(encode_rank_comms(comms, kFormatVersion), nranks, kFormatVersion),
              comms);
    // Version 4's layout has no groups: they read as 0 (not recorded).
    std::vector<RankComms> without = comms;
    for (RankComms &rc : without)
      for (CommInfo &c : rc.comms)
        c.group = c.remote_group = 0;
    EXPECT_EQ(parse_rank_comms(encode_rank_comms(comms, 4), nranks, 4), without);
  }
}

TEST(CommunicatorGroups, RegularTablesStayFlat) {
  // A dup of MPI_COMM_WORLD on 1000 ranks: one table, one box, whatever the
  // group's hash.
  const uint32_t world = 12345;
  std::vector<RankComms> comms;
  for (uint32_t r = 0; r < 1000; ++r)
    comms.push_back(RankComms{r, {entry(0, static_cast<int32_t>(r), 1000, world)}});
  EXPECT_LT(encode_rank_comms(comms, kFormatVersion).size(), 24u);
}

TEST(CommunicatorGroups, InstancesOfSharedIds) {
  // 4 ranks. comm#0 by blocks {0, 1}, {2, 3}; freed; comm#0 again by parity,
  // highest first: {2, 0}, {3, 1}; comm#1 the intercommunicator between the
  // parities; comm#0 by blocks once more (the same groups as the first).
  const uint32_t b01 = hash_of({0, 1}), b23 = hash_of({2, 3});
  const uint32_t even = hash_of({2, 0}), odd = hash_of({3, 1});
  MergedTrace t;
  for (uint32_t r = 0; r < 4; ++r) {
    const uint32_t block = r < 2 ? b01 : b23, mine = r % 2 ? odd : even, other = r % 2 ? even : odd;
    const int32_t in_block = static_cast<int32_t>(r % 2), in_parity = r < 2 ? 1 : 0;
    t.comms.push_back(
        RankComms{r,
                  {entry(0, in_block, 2, block), entry(0, in_parity, 2, mine),
                   entry(1, in_parity, 2, mine, 2, other), entry(0, in_block, 2, block)}});
  }
  const std::vector<CommInstance> all = communicator_instances(t);
  ASSERT_EQ(all.size(), 7u);
  auto members = [](const CommInstance &c) { return c.members; };
  EXPECT_EQ(members(all[0]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(members(all[1]), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(members(all[2]), (std::vector<int64_t>{3, 1})); // by lowest member
  EXPECT_EQ(members(all[3]), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(all[4].occurrence, 1u);
  EXPECT_EQ(members(all[4]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(members(all[5]), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(all[6].inter);
  EXPECT_EQ(all[6].comm_id, 1u);
  EXPECT_EQ(members(all[6]), (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(all[6].remote_members, (std::vector<int64_t>{3, 1}));
  for (const CommInstance &c : all)
    EXPECT_TRUE(c.consistent);
}

TEST(CommunicatorGroups, MissingAndClashingMembersAreFlagged) {
  MergedTrace t;
  // Two members of a group of three in the trace: the third is of another
  // job only if its hash term says so.
  GroupHash other_job(3);
  for (uint32_t w : {0u, 1u, kOutsideWorld})
    other_job.add(w);
  t.comms.push_back(RankComms{0, {entry(0, 0, 3, other_job.value())}});
  t.comms.push_back(RankComms{1, {entry(0, 1, 3, other_job.value())}});
  // Two ranks claiming rank 0 of one communicator.
  t.comms.push_back(RankComms{2, {entry(5, 0, 2, hash_of({2, 3}))}});
  t.comms.push_back(RankComms{3, {entry(5, 0, 2, hash_of({2, 3}))}});
  const std::vector<CommInstance> all = communicator_instances(t);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].members, (std::vector<int64_t>{0, 1, -1}));
  EXPECT_TRUE(all[0].consistent);
  EXPECT_FALSE(all[1].consistent);
  EXPECT_FALSE(membership_recorded(4));
  EXPECT_TRUE(membership_recorded(kFormatVersion));
}

} // namespace
} // namespace pilgrim
