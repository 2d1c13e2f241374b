// libpilgrim-reader's API (reader/include/pilgrim/reader.h) on the committed
// trace of every format version (test/fixtures/version-N.pilgrim): linked
// against the shared library alone, as a user's program is.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../fixtures/fixture_files.h"
#include "pilgrim/reader.h"

namespace pilgrim::reader {
namespace {

using test::file_bytes;
using test::fixture_path;

// The message of the TraceError `f` throws ("" when it throws none).
template <class F> std::string error_of(F f) {
  try {
    f();
  } catch (const TraceError &e) {
    return e.what();
  }
  return "";
}

// Every version reads, and its counts agree three ways: the calls a walk
// yields, the CST's counts, and the grammar's (without expanding it).
TEST(ReaderApi, EveryVersionReadsAndCountsAgree) {
  for (unsigned v = 1; v <= kFormatVersion; ++v) {
    SCOPED_TRACE("version " + std::to_string(v));
    const TraceFile trace(fixture_path(v));
    EXPECT_EQ(trace.header().version, v);
    ASSERT_EQ(trace.nranks(), 4u);
    const std::vector<uint64_t> lengths = trace.rule_lengths();
    uint64_t walked = 0;
    for (uint32_t r = 0; r < trace.nranks(); ++r) {
      uint64_t n = 0;
      for (CallCursor c = trace.calls(r); c.next(); ++n) {
        EXPECT_EQ(c.position(), n);
        EXPECT_EQ(c.rank(), r);
        ASSERT_NE(c.call().function, nullptr);
        EXPECT_EQ(c.call().function, trace.function(c.call().function_id));
        EXPECT_EQ(c.call().function_id, trace.cst_call(c.entry()).function_id);
      }
      EXPECT_GT(n, 0u);
      EXPECT_EQ(lengths.at(trace.start_rule(r)), n);
      uint64_t from_grammar = 0;
      for (const auto &[entry, count] : trace.entry_counts(trace.grammar_of(r))) {
        EXPECT_LT(entry, trace.cst_size());
        from_grammar += count;
      }
      EXPECT_EQ(from_grammar, n);
      // visit_calls covers the same calls, per entry as often.
      std::map<uint64_t, uint64_t> uses;
      trace.visit_calls(r, [&](uint64_t entry, const Call &call, uint64_t times) {
        EXPECT_EQ(call.function_id, trace.cst_call(entry).function_id);
        uses[entry] += times;
      });
      const auto counts = trace.entry_counts(trace.grammar_of(r));
      const std::vector<std::pair<uint64_t, uint64_t>> visited_counts(uses.begin(), uses.end());
      EXPECT_EQ(visited_counts, counts);
      walked += n;
    }
    uint64_t from_cst = 0, visited = 0;
    trace.visit_cst([&](uint64_t entry, const CstEntry &e, const Call &call) {
      EXPECT_EQ(entry, visited++);
      EXPECT_EQ(&e, &trace.cst_entry(entry));
      EXPECT_EQ(&call, &trace.cst_call(entry));
      from_cst += e.count;
    });
    EXPECT_EQ(visited, trace.cst_size());
    EXPECT_EQ(from_cst, walked);
  }
}

TEST(ReaderApi, HeaderFunctionsAndCalls) {
  const TraceFile trace(fixture_path(1));
  const TraceHeader &h = trace.header();
  EXPECT_EQ(h.mpi_library, "Open MPI");
  EXPECT_EQ(h.mpi_version, "4.1.4");
  EXPECT_EQ(h.command_line, "mpirun -np 4 ./ring");
  EXPECT_EQ(timing_mode_text(h.timing_mode), "aggregate");
  ASSERT_EQ(trace.functions().size(), 7u);
  for (size_t i = 1; i < trace.functions().size(); ++i)
    EXPECT_LT(trace.functions()[i - 1]->id, trace.functions()[i]->id);
  EXPECT_EQ(trace.function(0xFFFF), nullptr);

  // rank 0 call 2: MPI_Irecv(..., source=3 (+3), ...); call 3: MPI_Isend(..., dest=1 (+1), ...)
  CallCursor c = trace.calls(0);
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(c.next());
  const Call &irecv = c.call();
  EXPECT_STREQ(irecv.name(), "MPI_Irecv");
  const CallArg &source = irecv.args.at(3);
  EXPECT_STREQ(source.param->name, "source");
  EXPECT_EQ(source.role(), Role::Rank);
  const RankRef &from = source.any()->elements.at(0).rank;
  EXPECT_EQ(from.kind, RankCode::Relative);
  EXPECT_EQ(from.offset, 3);
  EXPECT_EQ(from.rank, 3);
  ASSERT_TRUE(c.next());
  EXPECT_EQ(c.position(), 3u);
  EXPECT_STREQ(c.call().name(), "MPI_Isend");
  EXPECT_EQ(c.call().args.at(3).any()->elements.at(0).rank.rank, 1);
  // The CST's copy of the same call has no rank to resolve against.
  const RankRef &unresolved = trace.cst_call(c.entry()).args.at(3).any()->elements.at(0).rank;
  EXPECT_EQ(unresolved.offset, 1);
  EXPECT_FALSE(unresolved.known());
}

TEST(ReaderApi, CommunicatorTablesAndStatusSources) {
  // Versions 2 and 3: a reversed split, comm#0 of size 4; rank 0 is its rank 3.
  for (unsigned v : {2u, 3u}) {
    SCOPED_TRACE("version " + std::to_string(v));
    const TraceFile trace(fixture_path(v));
    const std::vector<CommInfo> &table = trace.comm_table(0);
    ASSERT_EQ(table.size(), 1u);
    EXPECT_EQ(table[0].comm_id, 0u);
    EXPECT_EQ(table[0].rank, 3);
    EXPECT_EQ(table[0].size, 4);
    EXPECT_EQ(table[0].remote_size, -1);
    // rank 0 call 3: MPI_Waitall(..., array_of_statuses=[{source=2 ...}]): the same
    // rank whichever rule the version's offset follows.
    CallCursor c = trace.calls(0);
    for (int i = 0; i < 4; ++i)
      ASSERT_TRUE(c.next());
    EXPECT_STREQ(c.call().name(), "MPI_Waitall");
    const CallArg &statuses = c.call().args.at(2);
    EXPECT_EQ(statuses.role(), Role::Status);
    EXPECT_EQ(statuses.any()->elements.at(0).status.source.rank, 2);
  }
  EXPECT_EQ(TraceFile(fixture_path(1)).comm_table(2), (std::vector<CommInfo>{{0, 2, 4, -1}}));
}

TEST(ReaderApi, CommunicatorMembersAndKeptSenders) {
  // Version 5: the even and the odd ranks split into two communicators that
  // share id 0; rank 2 receives from MPI_ANY_SOURCE and ignores the status,
  // whose sender the trace kept.
  const TraceFile trace(fixture_path(5));
  ASSERT_TRUE(trace.membership_recorded());
  const std::vector<CommInstance> comms = trace.communicators();
  ASSERT_EQ(comms.size(), 2u);
  EXPECT_EQ(comms[0].comm_id, 0u);
  EXPECT_EQ(comms[0].members, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(comms[1].comm_id, 0u);
  EXPECT_EQ(comms[1].members, (std::vector<int64_t>{1, 3}));
  EXPECT_FALSE(comms[0].inter);
  CallCursor c = trace.calls(2);
  while (c.next() && std::string(c.call().name()) != "MPI_Waitall") {
  }
  ASSERT_STREQ(c.call().name(), "MPI_Waitall");
  const StatusRef &s = c.call().args.at(2).any()->elements.at(0).status;
  EXPECT_EQ(s.source.rank, 0); // rank 0 of comm#0 {0, 2}: world rank 0
  EXPECT_EQ(s.source.offset, -1);
  // Version 4 did not record membership.
  const TraceFile v4(fixture_path(4));
  EXPECT_FALSE(v4.membership_recorded());
  EXPECT_TRUE(v4.communicators().empty());
}

TEST(ReaderApi, GrammarWithoutExpanding) {
  const TraceFile trace(fixture_path(4));
  uint32_t covered = 0;
  for (const RankRange &range : trace.grammar_ranks()) {
    EXPECT_EQ(range.first, covered);
    EXPECT_LT(range.grammar, trace.grammar_count());
    covered += range.count;
    EXPECT_EQ(trace.grammar_of(range.first), range.grammar);
    EXPECT_EQ(trace.start_rule(range.first), trace.grammar_start_rule(range.grammar));
  }
  EXPECT_EQ(covered, trace.nranks());
  for (const auto &rule : trace.rules())
    for (const GrammarSymbol &s : rule) {
      EXPECT_GE(s.exp, 1u);
      if (s.is_rule())
        EXPECT_LT(s.rule(), trace.rules().size());
      else
        EXPECT_LT(static_cast<uint64_t>(s.value), trace.cst_size());
    }
}

TEST(ReaderApi, FromMemoryAndMoves) {
  TraceFile a = TraceFile::from_memory(file_bytes(fixture_path(4)), "v4");
  const FunctionInfo *row = a.function(a.functions().front()->id);
  EXPECT_EQ(row, a.functions().front());
  const CstEntry *entry = &a.cst_entry(0);
  TraceFile b(std::move(a));
  EXPECT_EQ(b.function(row->id), row);
  EXPECT_EQ(&b.cst_entry(0), entry);
  CallCursor c = b.calls(3);
  ASSERT_TRUE(c.next());
  EXPECT_STREQ(c.call().name(), "MPI_Init");
}

TEST(ReaderApi, OneLineErrors) {
  const std::string missing = fixture_path(1) + ".missing";
  EXPECT_EQ(error_of([&] { TraceFile t(missing); }).rfind(missing + ": ", 0), 0u);
  std::string bytes = file_bytes(fixture_path(kFormatVersion));
  bytes[8] = static_cast<char>(kFormatVersion + 1); // the version field (docs/FORMAT.md §3.1)
  const std::string newer = error_of([&] { TraceFile::from_memory(bytes, "t.pilgrim"); });
  EXPECT_EQ(newer, "t.pilgrim: format version " + std::to_string(kFormatVersion + 1) +
                       " is newer than this reader (reads 1 to " + std::to_string(kFormatVersion) +
                       "): update Pilgrim");
  EXPECT_EQ(newer.find('\n'), std::string::npos);
  EXPECT_NE(error_of([] { TraceFile::from_memory("PILGRIM", "short"); }), "");
  const TraceFile trace(fixture_path(4));
  EXPECT_NE(error_of([&] { trace.calls(4); }), "");
  EXPECT_NE(error_of([&] { trace.comm_table(4); }), "");
  EXPECT_NE(error_of([&] { trace.cst_entry(trace.cst_size()); }), "");
  EXPECT_NE(error_of([&] { trace.grammar_start_rule(trace.grammar_count()); }), "");
}

// Version 6 keeps every call's start and end; ranks' clocks are aligned to
// rank 0's (the fixture's rank r reads 7 r ns ahead; its call i starts at
// 1000 (i + 1) ns on rank 0's timeline and lasts 100 + 10 i ns).
TEST(ReaderApi, CallTimes) {
  const TraceFile trace(fixture_path(6));
  ASSERT_TRUE(trace.has_call_times());
  EXPECT_EQ(trace.header().timing_spec, "lossless");
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    const std::vector<CallTime> times = trace.call_times(r);
    uint64_t n = 0;
    for (CallCursor c = trace.calls(r); c.next();)
      ++n;
    ASSERT_EQ(times.size(), n);
    for (size_t i = 0; i < times.size(); ++i) {
      EXPECT_NEAR(times[i].start, 1e-9 * 1000 * (i + 1), 1e-12) << "rank " << r << " call " << i;
      EXPECT_NEAR(times[i].end - times[i].start, 1e-9 * (100 + 10 * i), 1e-12);
    }
  }
  const TraceFile old(fixture_path(5));
  EXPECT_FALSE(old.has_call_times());
  EXPECT_NE(error_of([&] { old.call_times(0); }), "");
  EXPECT_NE(error_of([&] { trace.call_times(4); }), "");
}

// The same calls as clock ticks, before alignment (what a verification copy
// holds), the tick's length, and the bytes the trace spends on them
// (pilgrim-stats --timing's ratio).
TEST(ReaderApi, CallTicksAndTimingBytes) {
  const TraceFile trace(fixture_path(6));
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    const std::vector<CallTime> times = trace.call_times(r);
    std::vector<int64_t> start, end;
    trace.call_ticks(r, start, end);
    ASSERT_EQ(start.size(), times.size());
    ASSERT_EQ(end.size(), times.size());
    const double tick = trace.seconds_per_tick(r);
    EXPECT_GT(tick, 0);
    for (size_t i = 0; i < times.size(); ++i)
      EXPECT_NEAR(static_cast<double>(end[i] - start[i]) * tick, times[i].end - times[i].start,
                  1e-12)
          << "rank " << r << " call " << i;
    EXPECT_GT(trace.call_times_bytes(r), 0u);
  }
  std::vector<int64_t> start, end;
  EXPECT_NE(error_of([&] { trace.call_ticks(trace.nranks(), start, end); }), "");
  EXPECT_NE(error_of([&] { trace.call_times_bytes(trace.nranks()); }), "");
  const TraceFile old(fixture_path(5));
  EXPECT_EQ(old.call_times_bytes(0), 0u);
  EXPECT_NE(error_of([&] { old.call_ticks(0, start, end); }), "");
}

TEST(ReaderApi, LibraryVersion) {
  EXPECT_EQ(std::string(library_version()).rfind(std::to_string(kVersionMajor) + ".", 0), 0u);
}

} // namespace
} // namespace pilgrim::reader
