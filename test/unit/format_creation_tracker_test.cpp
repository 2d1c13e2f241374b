// Which communicator entry, grid, window rank and request communicator
// applies at each call of a rank's walk (creation_tracker.h,
// context_walk.h; docs/FORMAT.md §7 "Which communicator entry applies" and
// §8.3): ids are reused after they are freed, so what a call's ids mean
// depends on the creation it follows, never on its CST entry.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "../fuzz/sample_trace.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/context_walk.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim {
namespace {

using sample::SigBuilder;
namespace s = sig;

// Rows the sample table lacks.
const ParamInfo kDupParams[] = {
    sample::comm_param(),
    sample::handle("newcomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create, Direction::Out,
                   sample::P),
};
const ParamInfo kCartCreateParams[] = {
    sample::comm_param("comm_old"),
    sample::value("ndims"),
    sample::param("dims", "const int[]", CType::Int, Role::Value, Direction::In, sample::A,
                  HandleKind::None, HandleAction::None, -1, -1, -1, 1, sample::kLenParam1, "ndims"),
    sample::param("periods", "const int[]", CType::Int, Role::Value, Direction::In, sample::A,
                  HandleKind::None, HandleAction::None, -1, -1, -1, 1, sample::kLenParam1, "ndims"),
    sample::value("reorder"),
    sample::handle("comm_cart", "MPI_Comm *", HandleKind::Comm, HandleAction::Create,
                   Direction::Out, sample::P),
};
const ParamInfo kCartSubParams[] = {
    sample::comm_param(),
    sample::param("remain_dims", "const int[]", CType::Int, Role::Value, Direction::In, sample::A,
                  HandleKind::None, HandleAction::None, -1, -1, -1, 1, sample::kLenParam0,
                  "cartdim(comm)"),
    sample::handle("newcomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create, Direction::Out,
                   sample::P),
};
const ParamInfo kWaitanyParams[] = {
    sample::value("count"),
    sample::param("array_of_requests", "MPI_Request[]", CType::Handle, Role::Handle,
                  Direction::InOut, sample::A, HandleKind::Request, HandleAction::Free, -1, -1, -1,
                  1, sample::kLenParam0, "count"),
    sample::param("index", "int *", CType::Int, Role::Value, Direction::Out, sample::P),
    sample::param("status", "MPI_Status *", CType::Status, Role::Status, Direction::Out, sample::P,
                  HandleKind::None, HandleAction::None, 2),
};
const ParamInfo kIntercommCreateParams[] = {
    sample::comm_param("local_comm"),
    sample::param("local_leader", "int", CType::Int, Role::Rank, Direction::In, 0, HandleKind::None,
                  HandleAction::None, 0),
    sample::comm_param("peer_comm"),
    sample::param("remote_leader", "int", CType::Int, Role::Rank, Direction::In, 0,
                  HandleKind::None, HandleAction::None, 2),
    sample::param("tag", "int", CType::Int, Role::Tag),
    sample::handle("newintercomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create,
                   Direction::Out, sample::P),
};
const FunctionInfo kExtra[] = {
    {101, "MPI_Comm_dup", 2, kDupParams},
    {102, "MPI_Cart_create", 6, kCartCreateParams},
    {103, "MPI_Cart_sub", 3, kCartSubParams},
    {104, "MPI_Waitany", 4, kWaitanyParams},
    {105, "MPI_Intercomm_create", 6, kIntercommCreateParams},
};

const FunctionInfo *lookup(uint16_t id) {
  for (const FunctionInfo &f : kExtra)
    if (f.id == id)
      return &f;
  return sample::lookup(id);
}

DecodedCall decode(const std::string &sig) { return decode_signature(lookup, sig); }

constexpr uint64_t kSelf = s::handle_predefined(1);
uint64_t comm(uint64_t u) { return s::handle_user(u); }

std::string split(uint64_t parent, uint64_t created) {
  return SigBuilder("MPI_Comm_split").v(parent).i(0).i(0).arr(1).v(created).done();
}
std::string dup(uint64_t parent, uint64_t created) {
  return SigBuilder(101).v(parent).arr(1).v(created).done();
}
std::string cart_create(uint64_t parent, std::vector<int> dims, std::vector<int> periods,
                        uint64_t created) {
  SigBuilder b(102);
  b.v(parent).i(static_cast<int64_t>(dims.size())).arr(dims.size());
  for (int d : dims)
    b.i(d);
  b.arr(periods.size());
  for (int p : periods)
    b.i(p);
  return b.i(0).arr(1).v(created).done();
}
std::string cart_sub(uint64_t parent, std::vector<int> remain, uint64_t created) {
  SigBuilder b(103);
  b.v(parent).arr(remain.size());
  for (int r : remain)
    b.i(r);
  return b.arr(1).v(created).done();
}
std::string intercomm(uint64_t created) {
  return SigBuilder(105)
      .v(sample::kWorld)
      .v(s::rank_absolute(0))
      .v(sample::kWorld)
      .v(s::rank_absolute(1))
      .v(s::tag_value(0))
      .arr(1)
      .v(created)
      .done();
}
std::string free_comm(uint64_t u) {
  return SigBuilder("MPI_Comm_free").arr(1).v(comm(u)).arr(1).v(s::kHandleNull).done();
}
std::string send(uint64_t rank_code, uint64_t c) {
  return SigBuilder("MPI_Send")
      .v(s::buffer_id(0))
      .i(1)
      .v(sample::kInt)
      .v(rank_code)
      .v(s::tag_value(0))
      .v(c)
      .done();
}
std::string win_create(uint64_t c, uint64_t win) { return sample::win_create_sig(c, win); }
std::string put(int64_t offset, uint64_t win) { return sample::put_sig(offset, win); }
std::string irecv_any(uint64_t c, uint64_t request) {
  return SigBuilder("MPI_Irecv")
      .v(s::buffer_id(0))
      .i(1)
      .v(sample::kInt)
      .v(s::kRankAnySource)
      .v(s::tag_value(0))
      .v(c)
      .arr(1)
      .v(s::handle_user(request))
      .done();
}
// Completes requests `a` and `b`; each status names a source at `offset_a`
// / `offset_b` from the caller.
std::string waitall(uint64_t a, uint64_t b, int64_t offset_a, int64_t offset_b) {
  return SigBuilder("MPI_Waitall")
      .i(2)
      .arr(2)
      .v(s::handle_user(a))
      .v(s::handle_user(b))
      .arr(2)
      .v(s::kHandleNull)
      .v(s::kHandleNull)
      .arr(2)
      .v(s::kStatusFull)
      .v(s::rank_relative(offset_a))
      .v(s::tag_value(0))
      .i(4)
      .v(s::kStatusFull)
      .v(s::rank_relative(offset_b))
      .v(s::tag_value(0))
      .i(4)
      .done();
}
std::string waitany(uint64_t a, uint64_t b, int64_t index, int64_t offset) {
  return SigBuilder(104)
      .i(2)
      .arr(2)
      .v(s::handle_user(a))
      .v(s::handle_user(b))
      .arr(2)
      .v(index == 0 ? s::kHandleNull : s::handle_user(a))
      .v(index == 1 ? s::kHandleNull : s::handle_user(b))
      .arr(1)
      .i(index)
      .v(s::kStatusFull)
      .v(s::rank_relative(offset))
      .v(s::tag_value(0))
      .i(4)
      .done();
}

// One rank: its calls in order and its COMMS table. texts() walks the calls
// as pilgrim-dump does, each in the context of its position.
struct Rank {
  int64_t world_rank = 0;
  std::vector<CommInfo> table;
  std::vector<std::string> sigs;
  uint16_t version = kFormatVersion;

  std::vector<DecodedCall> decoded() const {
    std::vector<DecodedCall> calls;
    for (const std::string &sg : sigs)
      calls.push_back(decode(sg));
    return calls;
  }
  CreationTracker tracker(const std::vector<DecodedCall> &calls) const {
    std::vector<std::pair<uint64_t, uint64_t>> counts;
    for (size_t i = 0; i < calls.size(); ++i)
      counts.emplace_back(i, 1);
    return CreationTracker(world_rank, version, table, comm_creations(calls, counts));
  }
  std::vector<std::string> texts() const {
    const std::vector<DecodedCall> calls = decoded();
    CreationTracker t = tracker(calls);
    std::vector<std::string> out;
    for (const DecodedCall &c : calls) {
      out.push_back(format_call(c, t.context()));
      t.apply(c);
    }
    return out;
  }
};

bool has(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(CreationTracker, AReusedIdTakesTheEntryOfTheCreationItFollows) {
  // World rank 0 of 4: rank 3 in a split with reversed keys, then rank 0 in
  // the dup that reuses its id.
  Rank r;
  r.table = {CommInfo{0, 3, 4, -1}, CommInfo{0, 0, 4, -1}};
  r.sigs = {split(sample::kWorld, comm(0)), send(s::rank_relative(-3), comm(0)), free_comm(0),
            dup(sample::kWorld, comm(0)), send(s::rank_relative(1), comm(0))};
  const auto t = r.texts();
  EXPECT_TRUE(has(t[1], "dest=0 (-3),")) << t[1];
  EXPECT_TRUE(has(t[4], "dest=1 (+1),")) << t[4];
  // Which of the id's entries applies, call by call (pilgrim-stats --matrix
  // names the communicator instance by it): none before the split, the
  // first after it, the second after the dup.
  const std::vector<DecodedCall> calls = r.decoded();
  CreationTracker tr = r.tracker(calls);
  std::vector<int64_t> index;
  for (const DecodedCall &c : calls) {
    index.push_back(tr.comm_entry_index(0));
    tr.apply(c);
  }
  EXPECT_EQ(index, (std::vector<int64_t>{-1, 0, 0, 0, 1}));
  EXPECT_EQ(tr.comm_entry_index(7), -1); // an id never seen
}

TEST(CreationTracker, OnlyCreatedUserHandlesCount) {
  // A split that returns MPI_COMM_NULL creates nothing: the rank's first
  // entry for id 0 belongs to the second split. An intercommunicator's
  // creation counts like any other.
  Rank r;
  r.world_rank = 1;
  r.table = {CommInfo{0, 2, 3, -1}, CommInfo{1, 0, 2, 2}};
  r.sigs = {split(sample::kWorld, s::kHandleNull), split(sample::kWorld, comm(0)),
            send(s::rank_relative(-1), comm(0)), intercomm(comm(1)),
            send(s::rank_relative(1), comm(1))};
  const auto t = r.texts();
  EXPECT_TRUE(has(t[2], "dest=1 (-1),")) << t[2];
  EXPECT_TRUE(has(t[4], "dest=1 (+1),")) << t[4];
}

TEST(CreationTracker, AnEntryBeforeTheFirstCreationAppliesFromTheStart) {
  // A spawned process's parent: listed first, created by no call.
  Rank r;
  r.table = {CommInfo{0, 1, 2, 3}, CommInfo{0, 0, 4, -1}};
  r.sigs = {send(s::rank_relative(1), comm(0)), free_comm(0), dup(sample::kWorld, comm(0)),
            send(s::rank_relative(1), comm(0))};
  const auto t = r.texts();
  EXPECT_TRUE(has(t[0], "dest=2 (+1),")) << t[0];
  EXPECT_TRUE(has(t[3], "dest=1 (+1),")) << t[3];
}

TEST(CreationTracker, ATableThatDisagreesWithTheWalkLeavesTheIdUnknown) {
  Rank r;
  r.table = {CommInfo{0, 3, 4, -1}}; // one entry, two creations
  r.sigs = {split(sample::kWorld, comm(0)),
            send(s::rank_relative(1), comm(0)),
            free_comm(0),
            dup(sample::kWorld, comm(0)),
            send(s::rank_relative(1), comm(0)),
            send(s::rank_relative(1), comm(5))}; // never created, no entry
  const auto t = r.texts();
  EXPECT_TRUE(has(t[1], "dest=self+1,")) << t[1];
  EXPECT_TRUE(has(t[4], "dest=self+1,")) << t[4];
  EXPECT_TRUE(has(t[5], "dest=self+1,")) << t[5];
  // Before any creation, an id whose entries match its creations has none.
  Rank early;
  early.table = {CommInfo{0, 3, 4, -1}};
  early.sigs = {send(s::rank_relative(1), comm(0)), split(sample::kWorld, comm(0))};
  EXPECT_TRUE(has(early.texts()[0], "dest=self+1,"));
}

TEST(CreationTracker, AWindowHasItsCreatorsRankAtItsCreation) {
  Rank r;
  r.table = {CommInfo{0, 3, 4, -1}, CommInfo{0, 0, 4, -1}};
  r.sigs = {split(sample::kWorld, comm(0)),
            win_create(comm(0), 0),
            put(-3, 0),
            free_comm(0),
            dup(sample::kWorld, comm(0)),
            put(-3, 0), // win#0 is still the first window
            win_create(comm(0), 0),
            put(1, 0)};
  const auto t = r.texts();
  EXPECT_TRUE(has(t[2], "target_rank=0 (-3),")) << t[2];
  EXPECT_TRUE(has(t[5], "target_rank=0 (-3),")) << t[5];
  EXPECT_TRUE(has(t[7], "target_rank=1 (+1),")) << t[7];
}

TEST(CreationTracker, ACompletionStatusSourceIsRelativeToItsRequestsCommunicator) {
  // World rank 5; rank 3 in comm#0. Each status of the Waitall belongs to
  // its own request, created on its own communicator.
  Rank r;
  r.world_rank = 5;
  r.table = {CommInfo{0, 3, 4, -1}};
  r.sigs = {split(sample::kWorld, comm(0)),
            irecv_any(comm(0), 0),
            irecv_any(sample::kWorld, 1),
            waitall(0, 1, -1, 2),
            irecv_any(comm(0), 0),
            irecv_any(sample::kWorld, 1),
            waitany(0, 1, 1, 2),
            waitany(0, 1, 0, -1)};
  auto t = r.texts();
  EXPECT_TRUE(has(t[3], "array_of_statuses=[{source=2 (-1), tag=0, count=4}, "
                        "{source=7 (+2), tag=0, count=4}]"))
      << t[3];
  EXPECT_TRUE(has(t[6], "status={source=7 (+2),")) << t[6];
  EXPECT_TRUE(has(t[7], "status={source=2 (-1),")) << t[7];
  // A reader that cannot know the request prints the unknown form.
  EXPECT_TRUE(has(format_call(decode(r.sigs[3]), CallContext{5}), "{source=self-1,"));
  // Versions 1 and 2: relative to the world rank.
  r.version = 2;
  t = r.texts();
  EXPECT_TRUE(has(t[3], "[{source=4 (-1), tag=0, count=4}, {source=7 (+2),")) << t[3];
  EXPECT_TRUE(has(format_call(decode(r.sigs[3]), CallContext{5, 2}), "{source=4 (-1),"));
}

TEST(CreationTracker, AGridIsTheGridOfTheCreationThatApplies) {
  // World rank 0 at (0, 0) of a periodic 2 x 2 grid; grid offset 2 is the
  // neighbor (1, 0) = rank 2, offset 1 the neighbor (0, 1) = rank 1.
  Rank r;
  r.table = {CommInfo{0, 0, 4, -1}, CommInfo{1, 0, 4, -1}, CommInfo{2, 0, 2, -1},
             CommInfo{0, 0, 4, -1}, CommInfo{3, 0, 2, -1}};
  r.sigs = {cart_create(sample::kWorld, {2, 2}, {1, 1}, comm(0)), // grid 2 x 2
            send(s::rank_cartesian(2), comm(0)),
            dup(comm(0), comm(1)), // the same grid
            send(s::rank_cartesian(2), comm(1)),
            cart_sub(comm(0), {0, 1}, comm(2)), // the second dimension
            send(s::rank_cartesian(1), comm(2)),
            free_comm(0),
            split(sample::kWorld, comm(0)), // id 0 again, without a grid
            send(s::rank_cartesian(2), comm(0)),
            cart_sub(comm(0), {1}, comm(3)), // of a communicator without a grid: none
            send(s::rank_cartesian(1), comm(3)),
            send(s::rank_cartesian(2), comm(1))}; // comm#1 keeps its grid
  const auto t = r.texts();
  EXPECT_TRUE(has(t[1], "dest=2 (grid +1,0),")) << t[1];
  EXPECT_TRUE(has(t[3], "dest=2 (grid +1,0),")) << t[3];
  EXPECT_TRUE(has(t[5], "dest=1 (grid +1),")) << t[5];
  EXPECT_TRUE(has(t[8], "dest=self+(grid #2),")) << t[8];
  EXPECT_TRUE(has(t[10], "dest=self+(grid #1),")) << t[10];
  EXPECT_TRUE(has(t[11], "dest=2 (grid +1,0),")) << t[11];
}

TEST(CreationTracker, TheOrderOfCstEntriesDoesNotMatter) {
  // Cart_create, Cart_sub and split of the same ids: the same texts whatever
  // order the CST lists the entries in.
  const std::vector<std::string> seq = {cart_create(sample::kWorld, {2, 2}, {1, 1}, comm(0)),
                                        cart_sub(comm(0), {1, 0}, comm(1)),
                                        send(s::rank_cartesian(1), comm(1)),
                                        free_comm(1),
                                        free_comm(0),
                                        split(sample::kWorld, comm(1)),
                                        send(s::rank_cartesian(1), comm(1))};
  const std::vector<CommInfo> table = {CommInfo{0, 0, 4, -1}, CommInfo{1, 0, 2, -1},
                                       CommInfo{1, 0, 4, -1}};
  auto texts = [&](bool reversed) {
    std::vector<DecodedCall> cst;
    std::vector<GrammarSymbol> body;
    for (size_t i = 0; i < seq.size(); ++i) {
      const size_t at = reversed ? seq.size() - 1 - i : i;
      body.push_back(GrammarSymbol::terminal(static_cast<uint32_t>(at)));
    }
    cst.resize(seq.size());
    for (size_t i = 0; i < seq.size(); ++i)
      cst[reversed ? seq.size() - 1 - i : i] = decode(seq[i]);
    Grammar g;
    g.rules = {body};
    CreationTracker t(0, kFormatVersion, table, comm_creations(cst, terminal_counts(g, 0)));
    std::vector<std::string> out;
    walk_in_context(g, 0, cst, t, [&](uint64_t term, uint64_t, const CallContext &ctx) {
      out.push_back(format_call(cst[term], ctx));
    });
    return out;
  };
  const auto a = texts(false), b = texts(true);
  EXPECT_EQ(a, b);
  EXPECT_TRUE(has(a[2], "dest=1 (grid +1),")) << a[2];
  EXPECT_TRUE(has(a[6], "dest=self+(grid #1),")) << a[6];
}

// The texts of the calls of `rank` of a trace file, walked as pilgrim-dump
// walks them.
std::vector<std::string> file_texts(const std::string &bytes, uint32_t rank) {
  const Trace trace = read_trace_from_memory(bytes, "t.pilgrim");
  std::vector<DecodedCall> calls;
  for (const CstEntry &e : trace.merged.cst)
    calls.push_back(decode_signature(trace, e.signature));
  CreationTracker t = CreationTracker::for_rank(trace, rank, calls);
  const RankView v = trace.rank(rank);
  GrammarWalker walker(*v.rules, v.root);
  std::vector<std::string> out;
  uint64_t term = 0;
  while (walker.next(term)) {
    out.push_back(format_call(calls[term], t.context()));
    t.apply(calls[term]);
  }
  return out;
}

TEST(CreationTracker, TraceFilesOfVersions3And2) {
  // Rank 1 of 4 is rank 2 of the reversed split, then rank 1 of the split
  // that reuses comm#0 and win#0. Its completions' sources: relative to its
  // rank in the request's communicator (version 3), or to its world rank
  // (version 2).
  const auto v3 = file_texts(sample::comm_reuse_trace_bytes(4, 3), 1);
  ASSERT_EQ(v3.size(), 13u);
  EXPECT_TRUE(has(v3[2], "dest=3 (+1),")) << v3[2];
  EXPECT_TRUE(has(v3[3], "{source=1 (-1),")) << v3[3];
  EXPECT_TRUE(has(v3[5], "target_rank=3 (+1),")) << v3[5];
  EXPECT_TRUE(has(v3[9], "dest=2 (+1),")) << v3[9];
  EXPECT_TRUE(has(v3[10], "{source=0 (-1),")) << v3[10];
  EXPECT_TRUE(has(v3[12], "target_rank=2 (+1),")) << v3[12];
  const auto v2 = file_texts(sample::comm_reuse_trace_bytes(4, 2), 1);
  EXPECT_TRUE(has(v2[2], "dest=3 (+1),")) << v2[2];
  EXPECT_TRUE(has(v2[3], "{source=0 (-1),")) << v2[3];
  EXPECT_TRUE(has(v2[10], "{source=0 (-1),")) << v2[10];
}

TEST(ContextWalk, RepetitionsThatChangeNothingAreVisitedOnce) {
  // R0 -> t0 R1^1000 t3;  R1 -> t1 t2 (an Irecv and its Waitall).
  std::vector<DecodedCall> cst = {decode(split(sample::kWorld, comm(0))),
                                  decode(irecv_any(comm(0), 0)), decode(waitall(0, 0, 1, 1)),
                                  decode(free_comm(0))};
  Grammar g;
  g.rules = {
      {GrammarSymbol::terminal(0), GrammarSymbol::nonterminal(1, 1000), GrammarSymbol::terminal(3)},
      {GrammarSymbol::terminal(1), GrammarSymbol::terminal(2)}};
  CreationTracker t(0, kFormatVersion, {CommInfo{0, 2, 4, -1}},
                    comm_creations(cst, terminal_counts(g, 0)));
  std::map<uint64_t, uint64_t> seen;
  size_t visits = 0;
  walk_in_context(g, 0, cst, t, [&](uint64_t term, uint64_t times, const CallContext &ctx) {
    seen[term] += times;
    ++visits;
    if (term == 2) {
      EXPECT_TRUE(has(format_call(cst[term], ctx), "{source=3 (+1),"));
    }
  });
  EXPECT_EQ(seen, (std::map<uint64_t, uint64_t>{{0, 1}, {1, 1000}, {2, 1000}, {3, 1}}));
  EXPECT_LE(visits, 8u); // not 2002
}

TEST(ContextWalk, RepetitionsThatCreateCommunicatorsAreWalkedInFull) {
  // A dup/free loop whose dups alternate between rank 0 and rank 3: every
  // iteration moves id 0 to its next entry.
  std::vector<DecodedCall> cst = {decode(dup(sample::kWorld, comm(0))),
                                  decode(send(s::rank_relative(1), comm(0))), decode(free_comm(0))};
  Grammar g;
  g.rules = {{GrammarSymbol::nonterminal(1, 4)},
             {GrammarSymbol::terminal(0), GrammarSymbol::terminal(1), GrammarSymbol::terminal(2)}};
  std::vector<CommInfo> table;
  for (int i = 0; i < 4; ++i)
    table.push_back(CommInfo{0, i % 2 ? 3 : 0, 4, -1});
  CreationTracker t(0, kFormatVersion, table, comm_creations(cst, terminal_counts(g, 0)));
  std::vector<std::string> dests;
  walk_in_context(g, 0, cst, t, [&](uint64_t term, uint64_t times, const CallContext &ctx) {
    EXPECT_EQ(times, 1u);
    const std::string text = format_call(cst[term], ctx);
    if (term == 1)
      dests.push_back(text.substr(text.find("dest="), 12));
  });
  EXPECT_EQ(dests, (std::vector<std::string>{"dest=1 (+1),", "dest=4 (+1),", "dest=1 (+1),",
                                             "dest=4 (+1),"}));
}

} // namespace
} // namespace pilgrim
