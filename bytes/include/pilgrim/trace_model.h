// The in-memory model of a trace: what read_trace returns and what the
// runtime builds (per rank) before serializing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/function_table.h"
#include "pilgrim/grammar_model.h"
#include "pilgrim/timing_stats.h"

namespace pilgrim {

// One call signature table entry; its terminal id is its index in
// RankTrace::cst.
struct CstEntry {
  std::string signature; // the encoded call (docs/FORMAT.md, "Signature encoding")
  uint64_t count = 0;    // how many calls had this signature
  TimingStats duration;  // time inside the call
  TimingStats interval;  // time since the start of the rank's previous call with this signature
  // Version 8, META's site table (docs/FORMAT.md §5.1): 0 no site, k + 1 the
  // trace's site k. Entries with equal signatures differ in their site.
  uint32_t site = 0;
};

// Where calls were made (version 8, docs/FORMAT.md §5.1).
struct CallSite {
  std::string module;   // the executable or shared library that made the call (its path)
  uint64_t address = 0; // the return address, in the module's link-time addresses; a
                        // trace keeps it only for sites without a file (read back: 0)
  std::string file;     // the source file, "" without debug information
  uint32_t line = 0;    // 0 when unknown
  uint32_t column = 0;  // 0 when unknown
  std::string function; // the enclosing function, "" when unknown
  friend bool operator==(const CallSite &a, const CallSite &b) {
    return a.module == b.module && a.address == b.address && a.file == b.file && a.line == b.line &&
           a.column == b.column && a.function == b.function;
  }
};

// What a rank knows about one of its communicators, so readers can turn
// relative ranks into absolute ones.
struct CommInfo {
  uint64_t comm_id = 0;     // the user symbolic id u of handle code 2u+2 (kind Comm)
  int32_t rank = 0;         // the rank's rank in the (local group of the) communicator
  int32_t size = 0;         // local group size
  int32_t remote_size = -1; // remote group size; -1 for an intracommunicator
  // Which ranks are members (format version 5; 0 = not recorded): a hash of
  // the world ranks of the (local / remote) group in rank order, the same on
  // every member, so readers can tell the communicators that share an id
  // apart (communicator_instances.h, docs/FORMAT.md §7.6).
  uint32_t group = 0;
  uint32_t remote_group = 0; // 0 for an intracommunicator
  friend bool operator==(const CommInfo &a, const CommInfo &b) {
    return a.comm_id == b.comm_id && a.rank == b.rank && a.size == b.size &&
           a.remote_size == b.remote_size && a.group == b.group && a.remote_group == b.remote_group;
  }
};

// One rank as the runtime records it (and as a version-1 file stores it):
// its own CST, grammar (rule 0 = its call sequence) and communicators.
struct RankTrace {
  std::vector<CstEntry> cst;
  Grammar grammar;
  std::vector<CommInfo> comms;
};

// Ranks [first, first + count) all have grammar `grammar`.
struct RankRange {
  uint32_t first = 0;
  uint32_t count = 0;
  uint32_t grammar = 0;
  friend bool operator==(const RankRange &a, const RankRange &b) {
    return a.first == b.first && a.count == b.count && a.grammar == b.grammar;
  }
};

// The communicators of one rank (only ranks that have user communicators).
struct RankComms {
  uint32_t rank = 0;
  std::vector<CommInfo> comms;
  friend bool operator==(const RankComms &a, const RankComms &b) {
    return a.rank == b.rank && a.comms == b.comms;
  }
};

// All ranks of a run after the cross-rank merge (format versions 2, 3): one CST
// shared by every rank, a pool of rules shared by the distinct grammars, the
// start rule of each distinct grammar, and which ranks have which grammar.
// Terminals index `cst`; rule references index `rules.rules`.
struct MergedTrace {
  std::vector<CstEntry> cst;       // counts and timing summed over all ranks
  Grammar rules;                   // the shared rule pool (no designated start rule)
  std::vector<uint64_t> roots;     // distinct grammar g's call sequence is rules[roots[g]]
  std::vector<RankRange> rank_map; // sorted, covering [0, nranks) without gaps
  std::vector<RankComms> comms;    // sorted by rank, ranks without user communicators omitted
  std::vector<CallSite> sites;     // version 8: the site table, empty when none was recorded

  // The grammar of `rank` (binary search in rank_map); throws TraceError if
  // the rank is not covered.
  uint32_t grammar_of(uint32_t rank) const;
  // The communicators of `rank` (empty when it has none).
  const std::vector<CommInfo> &comms_of(uint32_t rank) const;
};

// What a reader needs to walk one rank's calls: terminals index `cst`, the
// call sequence is the expansion of rule `root` of `rules`.
struct RankView {
  uint32_t rank = 0;
  uint32_t grammar = 0;
  uint64_t root = 0;
  const std::vector<CstEntry> *cst = nullptr;
  const Grammar *rules = nullptr;
  const std::vector<CommInfo> *comms = nullptr;
};

// A version-1 file's ranks as one MergedTrace: CSTs and rule sets
// concatenated (renumbered), one grammar per rank.
MergedTrace merged_from_ranks(std::vector<RankTrace> ranks);

struct TraceHeader {
  uint16_t version = 0;    // format version; set by read_trace, ignored by the writer
  std::string mpi_library; // e.g. "Open MPI"
  std::string mpi_version; // e.g. "4.1.4"
  uint32_t nranks = 0;
  uint8_t timing_mode = 0; // a TimingMode (timing_mode.h), kept as read even when unknown
  std::string command_line;
  int64_t start_time_unix_ns = 0;
  // Version 6, per-call modes: PILGRIM_TIMING's canonical text
  // (timing::spec_text), the bounds every RANK_TIMING section was coded
  // with; "" otherwise (written only when not empty).
  std::string timing_spec;
};

// Owning copy of a ParamInfo. name/c_type NULL in the source table become "".
struct OwnedParam {
  std::string name;
  std::string c_type;
  CType base = CType::Void;
  Role role = Role::Value;
  Direction dir = Direction::In;
  HandleKind handle_kind = HandleKind::None;
  HandleAction action = HandleAction::None;
  uint16_t flags = 0;
  int8_t ref = -1;
  int8_t ref2 = -1;
  int8_t ref3 = -1;
  std::vector<LenInstr> len; // at most 255 instructions
  bool has_len_text = false; // len_text NULL vs ""
  std::string len_text;
};

// Owning copy of a FunctionInfo that also keeps a FunctionInfo/ParamInfo view
// of itself (pointers into its own storage, rebuilt on copy and move), so
// code written against the generated static table works on a trace's table.
class OwnedFunction {
public:
  OwnedFunction();
  explicit OwnedFunction(const FunctionInfo &info);
  OwnedFunction(uint16_t id, std::string name, std::vector<OwnedParam> params);
  OwnedFunction(const OwnedFunction &other);
  OwnedFunction(OwnedFunction &&other) noexcept;
  OwnedFunction &operator=(const OwnedFunction &other);
  OwnedFunction &operator=(OwnedFunction &&other) noexcept;
  ~OwnedFunction() = default;

  uint16_t id() const { return id_; }
  const std::string &name() const { return name_; }
  const std::vector<OwnedParam> &params() const { return params_; }
  const FunctionInfo &info() const { return info_; }

private:
  void rebuild_view();

  uint16_t id_ = 0;
  std::string name_;
  std::vector<OwnedParam> params_; // at most 255
  std::vector<ParamInfo> param_views_;
  FunctionInfo info_{};
};

struct Trace {
  TraceHeader header;
  // The function-table rows the trace embeds; read_trace returns them sorted
  // by id with no duplicates.
  std::vector<OwnedFunction> functions;
  MergedTrace merged; // every rank's calls (version-1 files are converted)
  // Version 6, per-call modes: each rank's RANK_TIMING payload (clock block
  // and chunks, docs/FORMAT.md §7.9), as stored, by rank; absent where the
  // rank has none. Checked (and decoded) only when timing is read
  // (model/call_times.h).
  std::map<uint32_t, std::string> rank_timing;

  uint32_t nranks() const { return header.nranks; }
  // Rank `rank`'s CST, rules and communicators; throws TraceError when out of
  // range. O(log ranges).
  RankView rank(uint32_t rank) const;
  // Rank `rank` as a stand-alone RankTrace: the CST entries its grammar uses
  // (in CST order, renumbered from 0) and the rules its root reaches (root
  // first, then in pool order, renumbered from 0); counts and timing are the
  // merged CST's. Costs O(what the rank uses), not O(ranks).
  RankTrace rank_trace(uint32_t rank) const;

  // The row of function `id`, or nullptr. Binary search when `functions` is
  // sorted (as read_trace returns it), linear scan otherwise.
  const FunctionInfo *function(uint16_t id) const;
};

} // namespace pilgrim
