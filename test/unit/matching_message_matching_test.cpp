// The matcher of point-to-point messages (tools/matching/message_matching.h,
// docs/CHECK.md) on the committed traces of every format version
// (test/fixtures): a ring of Irecv/Isend/Waitall, wildcard receives whose
// senders the status kept, two communicators with one id, and traces that
// do not record communicator membership. The broken programs' findings are
// lit tests (test/check).
#include <gtest/gtest.h>

#include <set>
#include <tuple>

#include "../fixtures/fixture_files.h"
#include "comm_resolver.h"
#include "message_matching.h"
#include "pilgrim/reader.h"

namespace pilgrim {
namespace {

std::string errors_of(const MatchResult &m) {
  std::string s;
  for (const MatchFinding &f : m.findings)
    if (f.severity == MatchFinding::Severity::Error)
      s += "rank " + std::to_string(f.where.rank) + " call " + std::to_string(f.where.index) +
           ": " + f.what + "\n";
  return s;
}

std::string name_at(const reader::TraceFile &t, CallPlace p) {
  reader::CallCursor c = t.calls(p.rank);
  while (c.next())
    if (c.position() == p.index)
      return c.call().name();
  return "";
}

// Version 1: every rank receives from its left and sends to its right, three
// times, with MPI_Waitall completing both.
TEST(MessageMatching, RingOfRequests) {
  const reader::TraceFile t(test::fixture_path(1));
  const MatchResult m = match_messages(t);
  EXPECT_EQ(errors_of(m), "");
  EXPECT_FALSE(m.has_errors());
  ASSERT_EQ(m.messages.size(), 12u);
  std::set<std::tuple<uint32_t, uint64_t>> receives;
  for (const MatchedMessage &msg : m.messages) {
    EXPECT_EQ(msg.recv.rank, (msg.send.rank + 1) % 4);
    EXPECT_EQ(msg.comm, kCommWorld);
    EXPECT_EQ(msg.tag, 7);
    EXPECT_EQ(msg.bytes, 32); // 8 MPI_INTs
    EXPECT_EQ(name_at(t, msg.send), "MPI_Isend");
    EXPECT_EQ(name_at(t, msg.recv), "MPI_Irecv");
    EXPECT_EQ(name_at(t, msg.send_complete), "MPI_Waitall");
    EXPECT_EQ(name_at(t, msg.recv_complete), "MPI_Waitall");
    // Non-overtaking: the k-th receive gets the k-th send.
    EXPECT_LT(msg.send.index, msg.send_complete.index);
    receives.insert({msg.recv.rank, msg.recv.index});
  }
  EXPECT_EQ(receives.size(), 12u);
}

// Versions 5 and 6: two disjoint communicators with one id (comm#0, the
// even and the odd ranks); in each, rank 0 sends to rank 1, which receives
// from MPI_ANY_SOURCE with MPI_STATUSES_IGNORE, its sender kept.
TEST(MessageMatching, WildcardsByKeptSenderOnTwoInstancesOfOneId) {
  for (unsigned v : {5u, 6u}) {
    SCOPED_TRACE("version " + std::to_string(v));
    const reader::TraceFile t(test::fixture_path(v));
    const MatchResult m = match_messages(t);
    EXPECT_EQ(errors_of(m), "");
    ASSERT_EQ(m.messages.size(), 2u);
    const std::vector<CommInstance> comms = t.communicators();
    std::set<std::pair<uint32_t, uint32_t>> pairs;
    std::set<uint64_t> instances;
    for (const MatchedMessage &msg : m.messages) {
      pairs.insert({msg.send.rank, msg.recv.rank});
      ASSERT_LT(msg.comm, comms.size());
      EXPECT_EQ(comms[msg.comm].comm_id, 0u);
      instances.insert(msg.comm);
      EXPECT_EQ(name_at(t, msg.send), "MPI_Send");
      EXPECT_EQ(name_at(t, msg.recv_complete), "MPI_Waitall");
    }
    EXPECT_EQ(pairs, (std::set<std::pair<uint32_t, uint32_t>>{{0, 2}, {1, 3}}));
    EXPECT_EQ(instances.size(), 2u);
  }
}

// Versions 2 and 3 do not record which world ranks a split's communicator
// holds: its messages cannot be placed on channels, which is said once per
// rank and communicator as a warning, never an error.
TEST(MessageMatching, UnknownMembershipIsAWarning) {
  for (unsigned v : {2u, 3u}) {
    SCOPED_TRACE("version " + std::to_string(v));
    const reader::TraceFile t(test::fixture_path(v));
    const MatchResult m = match_messages(t);
    EXPECT_EQ(errors_of(m), "");
    EXPECT_TRUE(m.messages.empty());
    bool warned = false;
    for (const MatchFinding &f : m.findings)
      warned = warned || f.what.find("world rank is unknown") != std::string::npos;
    EXPECT_TRUE(warned);
  }
}

// Without the full check, only matching: no warnings about handles.
TEST(MessageMatching, MatchingAloneReportsNoHandles) {
  const reader::TraceFile t(test::fixture_path(5));
  MatchOptions o;
  o.full_check = false;
  const MatchResult m = match_messages(t, o);
  EXPECT_EQ(m.messages.size(), 2u);
  EXPECT_TRUE(m.findings.empty());
}

} // namespace
} // namespace pilgrim
