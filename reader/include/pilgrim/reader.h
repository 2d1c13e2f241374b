// libpilgrim-reader: the public library for reading Pilgrim traces
// (docs/READER.md). Open a trace, read its header, ranks, functions and
// communicator tables, iterate one rank's calls in order as decoded calls,
// and visit the call signature table (CST) and the grammar without
// expanding them, for analyses whose cost must follow the trace's size.
//
//   pilgrim::reader::TraceFile trace("app.pilgrim"); // throws pilgrim::TraceError
//   for (uint32_t r = 0; r < trace.nranks(); ++r)
//     for (pilgrim::reader::CallCursor c = trace.calls(r); c.next();)
//       std::cout << c.call().name() << '\n';
//
// Reads every format version from 1 to pilgrim::kFormatVersion
// (docs/FORMAT.md §10). The types it hands out (Call, RankRef, HandleRef,
// CstEntry, GrammarSymbol, TraceHeader, CommInfo, FunctionInfo) are the
// model's and the bytes' own, declared in the headers included below and
// installed with this one. Compatibility: docs/READER.md, "Compatibility".
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pilgrim/call_sites.h"
#include "pilgrim/call_times.h"
#include "pilgrim/communicator_instances.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/timing_mode.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {
class RankCalls;
} // namespace pilgrim

namespace pilgrim::reader {

// The version of this library's API: the SONAME is
// libpilgrim-reader.so.<kVersionMajor>. The major version changes only when
// a change breaks programs built against an earlier one; the minor version
// counts additions.
constexpr int kVersionMajor = 1;
constexpr int kVersionMinor = 3;
// The version of the library a program runs with ("1.0.0"), which may be a
// later minor version than the header it was built with.
const char *library_version();

class TraceFile;

// One rank's calls in order (the expansion of its grammar), each decoded and
// resolved at its position: ranks absolute and relative in the communicator
// as it is at that call, handles as kind plus id or predefined name. Made by
// TraceFile::calls; valid while its TraceFile lives. Walking costs one
// resolution per distinct call, not per call, while no creation changes
// what ids mean.
class CallCursor {
public:
  CallCursor(CallCursor &&) noexcept;
  CallCursor &operator=(CallCursor &&) noexcept;
  ~CallCursor();

  // Moves to the next call (the first, on the first call); false after the
  // last.
  bool next();
  // The current call; valid until next(). Only after next() returned true.
  const Call &call();
  // The current call's position in the rank's sequence, from 0.
  uint64_t position() const;
  // The CST entry the current call is an instance of (TraceFile::cst_entry).
  uint64_t entry() const;
  uint32_t rank() const { return rank_; }

private:
  friend class TraceFile;
  CallCursor(std::unique_ptr<RankCalls> walk, uint32_t rank);
  std::unique_ptr<RankCalls> walk_;
  uint32_t rank_ = 0;
};

// An opened trace. Movable, not copyable; the references it hands out stay
// valid while it lives (moving it keeps them valid).
class TraceFile {
public:
  // Reads and checks the whole file. Throws pilgrim::TraceError, whose
  // what() is one line naming the file, for a missing, truncated, corrupt or
  // newer-version file:
  //   "t.pilgrim: format version 7 is newer than this reader (reads 1 to 6): update Pilgrim"
  // (Pilgrim's tools print it after their name: "pilgrim-dump: t.pilgrim: ...").
  explicit TraceFile(const std::string &path);
  // The same from bytes in memory; `name` begins the error messages.
  static TraceFile from_memory(std::string_view bytes, const std::string &name = "<memory>");

  TraceFile(TraceFile &&) noexcept;
  TraceFile &operator=(TraceFile &&) noexcept;
  ~TraceFile();

  // --- Header -------------------------------------------------------------
  // Format version, MPI library and version, ranks, timing mode (a
  // TimingMode; timing_mode_text names it), command line, start time.
  const TraceHeader &header() const;
  uint32_t nranks() const;

  // --- Functions ----------------------------------------------------------
  // The rows of the function table the trace embeds, sorted by id: id,
  // name, and per parameter (params[0 .. nparams)) its name, role,
  // direction and handle kind. Call::function points to these rows.
  const std::vector<const FunctionInfo *> &functions() const;
  // The row of function `id`, or nullptr.
  const FunctionInfo *function(uint16_t id) const;

  // --- Communicators ------------------------------------------------------
  // Rank `rank`'s table of its user communicators, as the trace stores it:
  // each entry's id (comm#ID in a Call's HandleRef), the rank's rank in it,
  // its size and, for an intercommunicator, the remote group's size (-1 for
  // an intracommunicator). Empty for a rank with none. An id may be reused
  // for another communicator after MPI_Comm_free: a table holds every
  // instance in creation order (docs/FORMAT.md §7.7 says which applies when;
  // CallCursor applies it). Throws TraceError when `rank` is out of range.
  const std::vector<CommInfo> &comm_table(uint32_t rank) const;
  // Every user communicator of the run, each with its members as world ranks
  // (CommInstance: its id, which instance of that id and members it is, its
  // group and, for an intercommunicator, its remote group; -1 for a member
  // outside this trace), sorted by id, instance, then lowest member. Traces
  // record membership from format version 5 on (membership_recorded());
  // older ones give an empty list.
  std::vector<CommInstance> communicators() const;
  bool membership_recorded() const;

  // --- Calls --------------------------------------------------------------
  // Rank `rank`'s calls in order. Throws TraceError when `rank` is out of
  // range.
  CallCursor calls(uint32_t rank) const;
  // Every call of rank `rank` once, as uses of CST entries, at a cost that
  // follows the rank's distinct states rather than its number of calls:
  // visit(entry, call, times) stands for `times` calls of CST entry `entry`
  // in a row of the rank's walk, each resolved as `call` (at its position).
  // A repetition whose one iteration changed nothing (no communicator,
  // window, request or grid took a new meaning) is visited once for all its
  // remaining iterations. For analyses that count or sum per call (bytes,
  // calls per peer) on traces of 10^9 calls. `call` is valid during the
  // visit only. Throws TraceError when `rank` is out of range.
  void visit_calls(
      uint32_t rank,
      const std::function<void(uint64_t entry, const Call &call, uint64_t times)> &visit) const;

  // --- Per-call times -----------------------------------------------------
  // Whether the trace keeps every call's start and end (format version 6, a
  // per-call timing mode; header().timing_spec names the mode and bounds).
  bool has_call_times() const;
  // Rank `rank`'s calls' start and end (CallTime), in the order of
  // calls(rank), in seconds on rank 0's timeline (since rank 0's clock sync
  // at MPI_Init; every rank's clock aligned to rank 0's), each within the
  // mode's bound. Throws TraceError, one line, when the trace has no
  // per-call times, `rank` is out of range or its timing is damaged.
  std::vector<CallTime> call_times(uint32_t rank) const;
  // The same calls' start and end as rank `rank`'s own clock ticks, before
  // alignment, exactly as decoded (what PILGRIM_VERIFY=1's verification
  // copy, TRACE.verify.RANK.times, holds exactly), and the seconds one of
  // those ticks lasts. Throw as call_times does.
  void call_ticks(uint32_t rank, std::vector<int64_t> &start, std::vector<int64_t> &end) const;
  double seconds_per_tick(uint32_t rank) const;
  // The bytes the trace spends on rank `rank`'s per-call times (its
  // RANK_TIMING section's payload: clock block and chunks); 0 where it has
  // none. Throws TraceError when `rank` is out of range.
  uint64_t call_times_bytes(uint32_t rank) const;

  // --- Call signature table (CST) -----------------------------------------
  // The distinct calls of the run, shared by every rank: entry t's count
  // (calls of all ranks together) and timing aggregates (duration: time
  // inside the call; interval: time since the same rank's previous call of
  // the entry), and its call decoded without a rank's context (relative
  // ranks stay relative: RankRef::offset; absolute ranks and sentinels are
  // resolved).
  uint64_t cst_size() const;
  const CstEntry &cst_entry(uint64_t entry) const;
  const Call &cst_call(uint64_t entry) const;
  // Calls `visit(entry, cst_entry(entry), cst_call(entry))` for every entry
  // in order.
  void
  visit_cst(const std::function<void(uint64_t entry, const CstEntry &, const Call &)> &visit) const;

  // --- Grammar ------------------------------------------------------------
  // The rule pool every rank's grammar is made of. A rule's body is a list
  // of symbols, each a CST entry (a call) or another rule
  // (GrammarSymbol::is_rule(), rule()), repeated GrammarSymbol::exp times
  // (a loop's iteration count). A rank's calls are the expansion of its
  // start rule; ranks whose calls are the same share one grammar (one start
  // rule).
  const std::vector<std::vector<GrammarSymbol>> &rules() const;
  // Distinct grammar g's start rule, for g in [0, grammar_count()).
  uint32_t grammar_count() const;
  uint64_t grammar_start_rule(uint32_t grammar) const;
  // Which ranks share which grammar: ranges [first, first + count) with
  // grammar `grammar`, sorted, covering [0, nranks()).
  const std::vector<RankRange> &grammar_ranks() const;
  // Rank `rank`'s grammar and start rule; throw TraceError when out of
  // range.
  uint32_t grammar_of(uint32_t rank) const;
  uint64_t start_rule(uint32_t rank) const;
  // How many calls each rule expands to (saturating at UINT64_MAX), and how
  // many times each CST entry occurs in grammar `grammar`'s expansion (one
  // rank's calls), as (entry, count) sorted by entry. Both cost what the
  // rules cost, not what their expansion does.
  std::vector<uint64_t> rule_lengths() const;
  std::vector<std::pair<uint64_t, uint64_t>> entry_counts(uint32_t grammar) const;

  // --- Call sites (1.2, format version 8) ---------------------------------
  // Where the calls were made: the trace's site table (empty for a trace
  // without sites: older versions, PILGRIM_SITES=off), each site a module
  // and, where the program had debug information, source file, line, column
  // and function, else its link-time address (0 for sites with a file). A CST entry refers to one
  // (CstEntry::site); cst_site(entry) is that site, or nullptr where the
  // entry has none (a record the application did not make). Entries that
  // differ only in their site are distinct entries. pilgrim::site_text
  // (pilgrim/call_sites.h) gives the text the tools print
  // ("halo.cpp:42:5 in exchange()").
  const std::vector<CallSite> &sites() const;
  const CallSite *cst_site(uint64_t entry) const;

private:
  struct Data;
  explicit TraceFile(std::unique_ptr<Data> data);
  std::unique_ptr<Data> data_;
};

} // namespace pilgrim::reader
