// The in-memory model of a trace: what read_trace returns and what the
// runtime builds (per rank) before serializing.
#pragma once

#include <cstdint>
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
  TimingStats interval;  // time since the end of the previous call
};

// What a rank knows about one of its communicators, so readers can turn
// relative ranks into absolute ones.
struct CommInfo {
  uint64_t comm_id = 0;     // the user symbolic id u of handle code 2u+2 (kind Comm)
  int32_t rank = 0;         // the rank's rank in the (local group of the) communicator
  int32_t size = 0;         // local group size
  int32_t remote_size = -1; // remote group size; -1 for an intracommunicator
};

struct RankTrace {
  std::vector<CstEntry> cst;
  Grammar grammar;
  std::vector<CommInfo> comms;
};

struct TraceHeader {
  uint16_t version = 0;    // format version; set by read_trace, ignored by the writer
  std::string mpi_library; // e.g. "Open MPI"
  std::string mpi_version; // e.g. "4.1.4"
  uint32_t nranks = 0;
  uint8_t timing_mode = 0; // defined by the runtime; 0 = no timing recorded
  std::string command_line;
  int64_t start_time_unix_ns = 0;
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
  std::vector<RankTrace> ranks; // index = rank in MPI_COMM_WORLD

  // The row of function `id`, or nullptr. Binary search when `functions` is
  // sorted (as read_trace returns it), linear scan otherwise.
  const FunctionInfo *function(uint16_t id) const;
};

} // namespace pilgrim
