// CommTables (runtime/merge/comm_tables.h): per-rank communicator tables
// folded up random trees come back exactly, survive serialization, and a
// table every rank shares (relative to its world rank) is kept once.
#include "comm_tables.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace pilgrim {
namespace {

std::vector<CommInfo> random_table(std::mt19937 &rng, uint32_t rank) {
  std::vector<CommInfo> t;
  const int n = std::uniform_int_distribution<int>(0, 3)(rng);
  for (int i = 0; i < n; ++i) {
    CommInfo c;
    c.comm_id = std::uniform_int_distribution<uint64_t>(0, 4)(rng);
    c.size = std::uniform_int_distribution<int32_t>(1, 8)(rng);
    // Half the time the rank's world rank (a dup of the world), else small.
    c.rank = std::uniform_int_distribution<int>(0, 1)(rng)
                 ? static_cast<int32_t>(rank)
                 : std::uniform_int_distribution<int32_t>(0, c.size - 1)(rng);
    c.remote_size = std::uniform_int_distribution<int>(0, 3)(rng) == 0 ? 5 : -1;
    t.push_back(c);
  }
  return t;
}

CommTables round_trip(const CommTables &t) {
  std::string bytes;
  ByteWriter w(bytes);
  t.serialize(w);
  ByteReader r(bytes);
  CommTables back = CommTables::parse(r);
  EXPECT_TRUE(r.at_end());
  return back;
}

TEST(CommTables, RandomTreesGiveBackEveryRank) {
  std::mt19937 rng(11);
  for (int round = 0; round < 50; ++round) {
    const uint32_t nranks = std::uniform_int_distribution<uint32_t>(1, 200)(rng);
    std::vector<std::vector<CommInfo>> input(nranks);
    std::vector<CommTables> states(nranks);
    for (uint32_t r = 0; r < nranks; ++r) {
      input[r] = random_table(rng, r);
      states[r].add_rank(r, input[r]);
    }
    // A binomial tree as in MPI_Finalize, with serialization at every send.
    for (uint32_t step = 1; step < nranks; step *= 2)
      for (uint32_t r = 0; r + step < nranks; r += 2 * step)
        states[r].absorb(round_trip(states[r + step]));
    std::vector<RankComms> want;
    for (uint32_t r = 0; r < nranks; ++r)
      if (!input[r].empty())
        want.push_back(RankComms{r, input[r]});
    EXPECT_EQ(states[0].expand(), want) << "round " << round;
  }
}

TEST(CommTables, ASharedTableIsKeptOnce) {
  CommTables all, one;
  one.add_rank(0, {CommInfo{0, 0, 1000, -1}});
  const size_t single = one.memory_bytes();
  for (uint32_t r = 0; r < 1000; ++r) {
    CommTables s;
    s.add_rank(r, {CommInfo{0, static_cast<int32_t>(r), 1000, -1}, CommInfo{3, static_cast<int32_t>(r), 1000, -1}});
    all.absorb(s);
  }
  EXPECT_LT(all.memory_bytes(), 4 * single + 256);
  EXPECT_EQ(all.expand().size(), 1000u);
  EXPECT_EQ(all.expand()[999].comms[0].rank, 999);
}

TEST(CommTables, MalformedBytesAreRejected) {
  CommTables t;
  t.add_rank(3, {CommInfo{1, 3, 4, -1}});
  std::string bytes;
  ByteWriter w(bytes);
  t.serialize(w);
  for (size_t cut = 0; cut < bytes.size(); ++cut) {
    ByteReader r(std::string_view(bytes).substr(0, cut));
    EXPECT_THROW((void)CommTables::parse(r), TraceError) << cut; // every byte is needed
  }
}

} // namespace
} // namespace pilgrim
