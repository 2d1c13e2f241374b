// Turns one decoded call signature into the C++ lines of the proxy that make
// the same call, and collects what those lines need declared (handle
// variables, buffers, output variables).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "address_values.h"
#include "file_replay.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/trace_model.h"
#include "proxy_options.h"

namespace pilgrim::proxygen {

// What the generated calls refer to, declared once at file scope.
struct ProxySymbols {
  std::set<std::pair<HandleKind, uint64_t>> handles;            // user handle ids
  std::map<uint64_t, uint64_t> buffers;                         // buffer id -> bytes
  std::set<uint64_t> pointers;                                  // address ids
  std::map<std::string, std::string> scalars;                   // variable -> C type
  std::map<std::string, std::pair<std::string, size_t>> arrays; // variable -> C type, length
  size_t statuses = 0;                                          // length of the status array
  bool status = false;                                          // the single status variable
  bool user_ops = false;                                        // a user op stand-in is used
  std::map<uint64_t, uint64_t> address_bytes; // memory id -> bytes its addresses reach
  // MPI_Get_address calls that placed a new address in known memory: (the
  // new id, the memory's id, offset), on some rank (address_values.h)
  std::set<std::tuple<uint64_t, uint64_t, int64_t>> address_parents;
  size_t directory_slots = 0; // address directory entries (address_values.h)
};

class CallEmitter {
public:
  CallEmitter(const Trace &trace, const ProxyOptions &options, ProxySymbols &symbols);

  // The lines (without indentation) of one call (a CST entry resolved
  // without a position: relative ranks stay relative, and become
  // expressions of the proxy's rank). Throws TraceError naming the function
  // and parameter for what cannot be replayed.
  std::vector<std::string> emit(const Call &call);
  // Called with every call before emit: which request variable occupies each
  // slot of the request arrays of MPI_Waitany/Waitsome/Testany/Testsome.
  void learn(const Call &call);
  // --deterministic: per rank, the source each MPI_Irecv(MPI_ANY_SOURCE)
  // call (an element of the caller's decoded CST) matched
  // (wildcard_sources.h).
  void set_irecv_sources(std::map<const DecodedCall *, std::vector<int64_t>> sources) {
    irecv_sources_ = std::move(sources);
  }
  // The files the proxy opens (file_replay.h); file names become
  // proxy_file(K).
  void set_files(FilePlan *files) { files_ = files; }

private:
  // emit, in steps: one argument by its role and shape (emit_arg and the
  // emit_* it picks), then the call between its lines (call_lines).
  struct Arg;   // one parameter of the call being emitted
  struct Lines; // what emit builds for one call
  static std::vector<std::string> call_lines(const FunctionInfo &fn, const Lines &l);
  void emit_arg(const Arg &a, Lines &l);
  void emit_string_array(const Arg &a, Lines &l);
  void emit_opaque(const Arg &a, Lines &l);
  void emit_status(const Arg &a, Lines &l);
  void emit_status_in(const Arg &a, Lines &l);
  void emit_value(const Arg &a, Lines &l);
  void emit_out_value(const Arg &a, Lines &l);
  void emit_inout_value(const Arg &a, Lines &l);
  void emit_out_array(const Arg &a, Lines &l);
  void emit_in_array(const Arg &a, Lines &l);
  void handles_after(const Arg &a, bool any_completion, std::vector<std::string> &post);
  std::string element_expr(const Call &call, size_t p, const CallElement &e);
  std::string rank_expr(const Call &call, size_t p, const RankRef &r);
  std::string rank_base(const Call &call, int ref);
  std::string cart_rank(const Call &call, int ref, int64_t y);
  std::string handle_expr(const HandleRef &h);
  // The request of slot `slot` of the request arrays of `n` of the calls
  // that complete any (learn), where one request occupies it; else `none`.
  HandleRef slot_request(size_t n, size_t slot, const HandleRef &none) const;
  std::string buffer_expr(const Call &call, size_t p, int64_t memory);
  std::string callback_expr(const Call &call, size_t p, const HandleRef &h);
  std::string status_source(const Call &call, const RankRef &r);
  void size_buffer(const Call &call, size_t p, uint64_t id, std::vector<std::string> &pre);
  int64_t buffer_extent(const Call &call, const ParamInfo &pi, std::string &derived_type);
  std::string out_scalar(const ParamInfo &param);
  std::string out_array(const ParamInfo &param, size_t n);
  // Addresses (address_values.cpp).
  void learn_addresses(const Call &call);
  std::string address_expr(const Call &call, size_t p, const CallElement &e);
  void address_lines(const Call &call, const std::vector<std::string> &args,
                     std::vector<std::string> &pre, std::vector<std::string> &post);

  const Trace &trace_;
  const ProxyOptions &options_;
  ProxySymbols &symbols_;
  std::map<std::pair<size_t, size_t>, std::set<uint64_t>> request_slots_; // (n, slot) -> ids
  std::map<const DecodedCall *, std::vector<int64_t>> irecv_sources_;
  AddressPlan addresses_;
  FilePlan *files_ = nullptr;
};

// MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testsome: which requests they
// complete depends on the run.
bool completes_any(const std::string &function);

// C type of a parameter's elements ("int", "MPI_Aint", "MPI_Comm", ...).
std::string element_type(const ParamInfo &param);
// An integer as a C++ literal ("LL" beyond 32 bits).
std::string int_literal(int64_t v);
// Extent of predefined datatype `index` (its size, padded to a power of two).
int64_t predefined_extent(uint64_t index);
// The variable name of user handle `id` of `kind`: comm_3, type_0, and for a
// request its pool and slot, req_7_0 (req#7.0 in pilgrim-dump).
std::string handle_variable(HandleKind kind, uint64_t id);

} // namespace pilgrim::proxygen
