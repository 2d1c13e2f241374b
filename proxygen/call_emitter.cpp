#include "call_emitter.h"

#include <algorithm>
#include <cctype>
#include <cstdio>

#include "mpi_memory.h"
#include "named_constants.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/datatype_sizes.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/request_id.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "record_lines.h"
#include "wildcard_sources.h"

namespace pilgrim::proxygen {

namespace {

const char *kind_type(HandleKind kind) {
  switch (kind) {
  case HandleKind::Comm:
    return "MPI_Comm";
  case HandleKind::Group:
    return "MPI_Group";
  case HandleKind::Datatype:
    return "MPI_Datatype";
  case HandleKind::Op:
    return "MPI_Op";
  case HandleKind::Info:
    return "MPI_Info";
  case HandleKind::Errhandler:
    return "MPI_Errhandler";
  case HandleKind::File:
    return "MPI_File";
  case HandleKind::Win:
    return "MPI_Win";
  case HandleKind::Request:
    return "MPI_Request";
  case HandleKind::Message:
    return "MPI_Message";
  case HandleKind::Session:
    return "MPI_Session";
  case HandleKind::Keyval:
  case HandleKind::Fd:
    return "int";
  case HandleKind::Stream:
    return "FILE *";
  default:
    return nullptr;
  }
}

const char *role_name(Role r) {
  static const char *const names[] = {
      "Value",  "Rank",    "Tag",         "Handle",    "Buffer", "Status", "String",  "Callback",
      "Offset", "Pointer", "StringArray", "ArgvArray", "Opaque", "Double", "Varargs", "Address"};
  const size_t i = static_cast<size_t>(r);
  return i < sizeof names / sizeof names[0] ? names[i] : "unknown";
}

std::string double_literal(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  if (s == "inf")
    return "__builtin_inf()";
  if (s == "-inf")
    return "-__builtin_inf()";
  if (s == "nan" || s == "-nan")
    return "__builtin_nan(\"\")";
  return s;
}

std::string param_name(const FunctionInfo &fn, size_t p) {
  const char *n = fn.params[p].name;
  std::string s = n && *n ? n : "arg" + std::to_string(p);
  for (char &c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      c = '_';
  return s;
}

std::string join(const std::vector<std::string> &v, const char *sep = ", ") {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i)
      s += sep;
    s += v[i];
  }
  return s;
}

[[noreturn]] void unsupported(const Call &call, size_t p, const std::string &what) {
  throw TraceError(std::string(call.function->name) + ": parameter " +
                   param_name(*call.function, p) + ": " + what + " cannot be replayed yet");
}

// Gathers, scatters and all-to-alls move count x (number of processes)
// elements: their buffers are sized for every peer.
bool per_peer_buffers(const std::string &name) {
  std::string n;
  for (char c : name)
    n += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return n.find("gather") != std::string::npos || n.find("scatter") != std::string::npos ||
         n.find("alltoall") != std::string::npos || n.find("neighbor") != std::string::npos;
}

} // namespace

std::string int_literal(int64_t v) {
  std::string s = std::to_string(v);
  if (v > 2147483647LL || v < -2147483647LL)
    s += "LL";
  return s;
}

// Extent of a predefined datatype, from its size (pair types are padded).
int64_t predefined_extent(uint64_t index) {
  const int64_t size = predefined_datatype_size(static_cast<size_t>(index));
  if (size <= 0)
    return 32;
  int64_t e = 1;
  while (e < size)
    e *= 2;
  return e;
}

std::string element_type(const ParamInfo &param) {
  if (param.role == Role::Handle && kind_type(param.handle_kind))
    return kind_type(param.handle_kind);
  std::string t = param.c_type ? param.c_type : "";
  // Strip qualifiers, pointers and array brackets: "const int []" -> "int".
  for (const char *q : {"const ", "const"}) {
    size_t at;
    while ((at = t.find(q)) != std::string::npos)
      t.erase(at, std::string(q).size());
  }
  const size_t cut = t.find_first_of("*[");
  if (cut != std::string::npos)
    t.erase(cut);
  while (!t.empty() && t.back() == ' ')
    t.pop_back();
  while (!t.empty() && t.front() == ' ')
    t.erase(0, 1);
  if (!t.empty() && t != "void")
    return t;
  switch (param.base) {
  case CType::Aint:
    return "MPI_Aint";
  case CType::Count:
    return "MPI_Count";
  case CType::Offset:
    return "MPI_Offset";
  case CType::Fint:
    return "MPI_Fint";
  case CType::Double:
    return "double";
  case CType::Long:
    return "long long";
  case CType::Char:
    return "char";
  default:
    return "int";
  }
}

std::string handle_variable(HandleKind kind, uint64_t id) {
  std::string p = handle_id_prefix(kind);
  if (kind != HandleKind::Request)
    return p + "_" + std::to_string(id);
  const RequestId r = request_id_parts(id); // req#P.S is req_P_S
  return p + "_" + std::to_string(r.pool) + "_" + std::to_string(r.slot);
}

CallEmitter::CallEmitter(const Trace &trace, const ProxyOptions &options, ProxySymbols &symbols)
    : trace_(trace), options_(options), symbols_(symbols) {}

bool completes_any(const std::string &function) {
  return function == "MPI_Waitany" || function == "MPI_Waitsome" || function == "MPI_Testany" ||
         function == "MPI_Testsome";
}

void CallEmitter::learn(const Call &call) {
  // A record that is not an MPI call makes no call of the proxy's: its
  // addresses (a datatype's bounds) size no memory of the proxy's.
  if (is_record(call.function_id))
    return;
  learn_addresses(call);
  if (!completes_any(call.function->name))
    return;
  for (size_t p = 0; p < call.args.size(); ++p) {
    const ParamInfo &pi = call.function->params[p];
    const CallArg &dp = call.args[p];
    if (pi.role != Role::Handle || pi.handle_kind != HandleKind::Request || !dp.has_in ||
        dp.in.null)
      continue;
    for (size_t i = 0; i < dp.in.elements.size(); ++i)
      if (dp.in.elements[i].handle.user())
        request_slots_[{dp.in.elements.size(), i}].insert(dp.in.elements[i].handle.id);
  }
}

std::string CallEmitter::handle_expr(const HandleRef &h) {
  const HandleKind kind = h.handle_kind;
  if (h.null())
    return null_handle_name(kind);
  if (h.predefined()) {
    if (!h.name)
      throw TraceError("predefined " + std::string(handle_id_prefix(kind)) + " #" +
                       std::to_string(h.id) + " is unknown to this generator");
    return h.name;
  }
  if (kind == HandleKind::Session)
    throw TraceError("MPI sessions cannot be replayed yet");
  symbols_.handles.insert({kind, h.id});
  return handle_variable(kind, h.id);
}

HandleRef CallEmitter::slot_request(size_t n, size_t slot, const HandleRef &none) const {
  const auto it = request_slots_.find({n, slot});
  if (it == request_slots_.end() || it->second.size() != 1)
    return none;
  HandleRef h = none;
  h.kind = HandleCode::User;
  h.id = *it->second.begin();
  h.name = nullptr;
  return h;
}

// A Cartesian rank code: the rank at grid offset y from the caller in the
// communicator parameter `ref` (cart_peer in the prelude).
std::string CallEmitter::cart_rank(const Call &call, int ref, int64_t y) {
  if (ref < 0 || static_cast<size_t>(ref) >= call.args.size() ||
      call.function->params[ref].role != Role::Handle ||
      call.function->params[ref].handle_kind != HandleKind::Comm)
    unsupported(call, ref < 0 ? 0 : static_cast<size_t>(ref),
                "a Cartesian rank code without a communicator");
  const CallValue *v = call.args[static_cast<size_t>(ref)].any();
  if (!v || v->elements.empty())
    unsupported(call, static_cast<size_t>(ref), "a Cartesian rank code without a communicator");
  return "cart_peer(" + handle_expr(v->elements[0].handle) + ", " + std::to_string(y) + "LL)";
}

std::string CallEmitter::rank_base(const Call &call, int ref) {
  if (ref < 0 || static_cast<size_t>(ref) >= call.args.size())
    return "world_rank";
  const ParamInfo &pi = call.function->params[ref];
  const CallValue *v = call.args[static_cast<size_t>(ref)].any();
  if (!v || v->elements.empty() || pi.role != Role::Handle)
    return "world_rank";
  const HandleRef &h = v->elements[0].handle;
  switch (pi.handle_kind) {
  case HandleKind::Comm:
    if (h.predefined())
      return h.id == 0 ? "world_rank" : "0";
    if (h.null())
      return "0";
    return "comm_rank(" + handle_expr(h) + ")";
  case HandleKind::Group:
    if (!h.user())
      return "0";
    return "group_rank(" + handle_expr(h) + ")";
  case HandleKind::Win:
    if (!h.user())
      return "0";
    return "win_rank(" + handle_expr(h) + ")";
  default:
    return "world_rank";
  }
}

// The world rank a receive matched on each rank (kNoSource where the rank
// does not make it): `world_rank + d` when that is the same offset d on
// every rank, else the rank's entry of a table.
static std::string matched_source(const std::vector<int64_t> &source) {
  bool same = true;
  int64_t d = 0, first = -1;
  for (size_t r = 0; r < source.size(); ++r) {
    if (source[r] == kNoSource)
      continue;
    const int64_t off = source[r] - static_cast<int64_t>(r);
    if (first < 0) {
      first = static_cast<int64_t>(r);
      d = off;
    }
    same &= off == d;
  }
  if (same)
    return d == 0
               ? "world_rank"
               : "world_rank " + std::string(d > 0 ? "+ " : "- ") + std::to_string(d > 0 ? d : -d);
  std::vector<std::string> items;
  for (int64_t s : source)
    items.push_back(s == kNoSource ? "MPI_ANY_SOURCE" : std::to_string(s));
  return "std::array<int, " + std::to_string(source.size()) + ">{{" + join(items) +
         "}}[static_cast<std::size_t>(world_rank)]";
}

std::string CallEmitter::rank_expr(const Call &call, size_t p, const RankRef &r) {
  switch (r.kind) {
  case RankCode::AnySource:
    if (options_.deterministic) {
      // The recorded source of the same call, when it has a full status.
      for (size_t q = 0; q < call.args.size(); ++q) {
        const ParamInfo &pi = call.function->params[q];
        const CallArg &dp = call.args[q];
        if (pi.role == Role::Status && dp.has_out && !dp.out.null && dp.out.elements.size() == 1 &&
            dp.out.elements[0].status.has_source())
          return status_source(call, dp.out.elements[0].status.source);
      }
      // An MPI_Irecv: the source its completion recorded, on each rank.
      const auto it = irecv_sources_.find(call.coded);
      if (it != irecv_sources_.end())
        return matched_source(it->second);
    }
    return "MPI_ANY_SOURCE";
  case RankCode::ProcNull:
  case RankCode::Root:
  case RankCode::Undefined:
    return r.sentinel_name();
  case RankCode::Absolute:
    return int_literal(r.offset);
  case RankCode::Cartesian:
    return cart_rank(call, call.function->params[p].ref, r.offset);
  case RankCode::Relative: {
    const std::string base = rank_base(call, call.function->params[p].ref);
    if (r.offset == 0)
      return base;
    return base + (r.offset > 0 ? " + " : " - ") +
           std::to_string(r.offset > 0 ? r.offset : -r.offset);
  }
  }
  return "MPI_UNDEFINED";
}

// The source of the status of a call that names its source (MPI_Recv,
// MPI_Probe): relative to the caller's rank in the call's first
// communicator (in MPI_COMM_WORLD if it had none).
std::string CallEmitter::status_source(const Call &call, const RankRef &r) {
  if (const char *name = r.sentinel_name())
    return name;
  if (r.kind == RankCode::Absolute)
    return int_literal(r.offset);
  int comm = -1;
  for (size_t q = 0; q < call.args.size(); ++q)
    if (call.function->params[q].role == Role::Handle &&
        call.function->params[q].handle_kind == HandleKind::Comm) {
      comm = static_cast<int>(q);
      break;
    }
  if (r.kind == RankCode::Cartesian)
    return cart_rank(call, comm, r.offset);
  const std::string base = rank_base(call, comm);
  if (r.offset == 0)
    return base;
  return base + (r.offset > 0 ? " + " : " - ") +
         std::to_string(r.offset > 0 ? r.offset : -r.offset);
}

std::string CallEmitter::callback_expr(const Call &call, size_t p, const HandleRef &h) {
  if (h.null())
    return "nullptr";
  if (h.predefined()) {
    if (!h.name)
      unsupported(call, p, "predefined callback #" + std::to_string(h.id));
    return h.name;
  }
  const std::string t = call.function->params[p].c_type ? call.function->params[p].c_type : "";
  // One stand-in per user callback id (the runtime tells functions apart by
  // address): a template instance per id.
  struct Standin {
    const char *type;
    const char *templ;
    const char *handle;
  };
  static const Standin standins[] = {
      {"User_function", "user_op", ""},
      {"Comm_copy_attr_function", "copy_attr", "MPI_Comm"},
      {"Comm_delete_attr_function", "delete_attr", "MPI_Comm"},
      {"Copy_function", "copy_attr", "MPI_Comm"},
      {"Delete_function", "delete_attr", "MPI_Comm"},
      {"Type_copy_attr_function", "copy_attr", "MPI_Datatype"},
      {"Type_delete_attr_function", "delete_attr", "MPI_Datatype"},
      {"Win_copy_attr_function", "copy_attr", "MPI_Win"},
      {"Win_delete_attr_function", "delete_attr", "MPI_Win"},
      {"Comm_errhandler_function", "errhandler", "MPI_Comm"},
      {"Handler_function", "errhandler", "MPI_Comm"},
      {"Win_errhandler_function", "errhandler", "MPI_Win"},
      {"File_errhandler_function", "errhandler", "MPI_File"},
      {"Grequest_query_function", "grequest_query", ""},
      {"Grequest_free_function", "grequest_free", ""},
      {"Grequest_cancel_function", "grequest_cancel", ""},
  };
  for (const Standin &s : standins)
    if (t.find(s.type) != std::string::npos) {
      if (std::string(s.templ) == "user_op")
        symbols_.user_ops = true;
      std::string e = std::string(s.templ) + "<" + std::to_string(h.id);
      if (*s.handle)
        e += std::string(", ") + s.handle;
      return e + ">";
    }
  unsupported(call, p, "a user callback of type '" + t + "'");
}

// How many elements the buffer parameter `pi` of `call` holds: its count
// argument, 1 where it has none.
static int64_t buffer_count(const Call &call, const ParamInfo &pi) {
  if (pi.ref < 0 || static_cast<size_t>(pi.ref) >= call.args.size())
    return 1;
  const CallValue *cv = call.args[static_cast<size_t>(pi.ref)].any();
  if (!cv || cv->null || cv->elements.empty())
    return 1;
  if (!(cv->array && call.function->params[pi.ref].flags & kFlagArray))
    return std::max<int64_t>(0, cv->elements[0].integer);
  // v / w collectives: the sum of the counts plus the largest displacement.
  int64_t sum = 0, displ = 0;
  for (const CallElement &e : cv->elements)
    sum += std::max<int64_t>(0, e.integer);
  for (size_t q = 0; q < call.args.size(); ++q) {
    const ParamInfo &qi = call.function->params[q];
    const CallValue *dv = call.args[q].any();
    if (q != static_cast<size_t>(pi.ref) && qi.role == Role::Value && (qi.flags & kFlagArray) && dv)
      for (const CallElement &e : dv->elements)
        displ = std::max(displ, e.integer);
  }
  return sum + displ;
}

// The extent of one element of the buffer parameter `pi` of `call`, by its
// datatype argument: a predefined type's, 1 where it has none, 32 where
// it is unknown. A derived type's is known only when the proxy runs: its
// buffer starts large (fit_buffer grows it if needed) so that it keeps its
// address, which the trace may name as a pointer too; `derived_type` is
// then set to the type's variable.
int64_t CallEmitter::buffer_extent(const Call &call, const ParamInfo &pi,
                                   std::string &derived_type) {
  if (pi.ref2 < 0 || static_cast<size_t>(pi.ref2) >= call.args.size())
    return 1;
  const CallValue *tv = call.args[static_cast<size_t>(pi.ref2)].any();
  if (!tv || tv->null || tv->elements.empty())
    return 32;
  HandleRef type = tv->elements[0].handle;
  type.handle_kind = HandleKind::Datatype;
  if (tv->array && (call.function->params[pi.ref2].flags & kFlagArray))
    return 32;
  if (type.predefined())
    return predefined_extent(type.id);
  if (type.user()) {
    derived_type = handle_expr(type);
    return 1024;
  }
  return 32;
}

void CallEmitter::size_buffer(const Call &call, size_t p, uint64_t id,
                              std::vector<std::string> &pre) {
  const ParamInfo &pi = call.function->params[p];
  const int64_t count = buffer_count(call, pi);
  std::string derived_type;
  const int64_t extent = buffer_extent(call, pi, derived_type);
  const bool derived = !derived_type.empty();
  // A derived datatype's buffer is at most 64 MiB: a large count of a small
  // or empty type (MPI_Send_c of 3e9 zero-size elements) takes no count x
  // 1024 bytes. Counts are MPI_Count wide.
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, extent, &bytes) ||
      (per_peer_buffers(call.function->name) &&
       __builtin_mul_overflow(bytes, std::max<int64_t>(1, trace_.nranks()), &bytes)))
    bytes = INT64_MAX - 64;
  if (derived)
    bytes = std::min<int64_t>(bytes, int64_t{64} << 20);
  bytes += 64;
  uint64_t &size = symbols_.buffers[id];
  size = std::max<uint64_t>(size, static_cast<uint64_t>(std::max<int64_t>(bytes, 64)));
  if (derived) {
    const std::string var = "buf_" + std::to_string(id);
    int64_t n = count;
    if (per_peer_buffers(call.function->name))
      n *= std::max<int64_t>(1, trace_.nranks());
    pre.push_back("fit_buffer(" + var + ", " + var + "_size, " + std::to_string(n) + ", " +
                  derived_type + ");");
  }
}

std::string CallEmitter::buffer_expr(const Call &call, size_t p, int64_t memory) {
  (void)call;
  (void)p;
  switch (memory) {
  case kMemoryNull:
    return "nullptr";
  case kMemoryInPlace:
    return "MPI_IN_PLACE";
  case kMemoryBottom:
    return "MPI_BOTTOM";
  default:
    return "buf_" + std::to_string(memory);
  }
}

std::string CallEmitter::element_expr(const Call &call, size_t p, const CallElement &e) {
  const ParamInfo &pi = call.function->params[p];
  switch (pi.role) {
  case Role::Value: {
    const std::string named = named_constant(trace_.header.mpi_library, call.function->name,
                                             pi.name ? pi.name : "", e.integer);
    return named.empty() ? int_literal(e.integer) : named;
  }
  case Role::Offset:
    // An offset that follows the rank: an expression of the proxy's rank in
    // MPI_COMM_WORLD (docs/FORMAT.md §8.3).
    if (e.rank_stride == 0)
      return int_literal(e.integer);
    return (e.rank_base != 0 ? "MPI_Offset{" + int_literal(e.rank_base) + "} + " : std::string()) +
           "MPI_Offset{" + int_literal(e.rank_stride) + "} * world_rank";
  case Role::Double:
    return double_literal(e.real);
  case Role::Rank:
    if (pi.flags & kFlagMatrix3) // int [][3] rows: plain values (docs/FORMAT.md §8.1)
      return int_literal(e.integer);
    return rank_expr(call, p, e.rank);
  case Role::Tag:
    return e.tag.any ? "MPI_ANY_TAG" : int_literal(e.tag.tag);
  case Role::Handle:
    return handle_expr(e.handle);
  case Role::Callback:
    return callback_expr(call, p, e.handle);
  case Role::Buffer:
    return buffer_expr(call, p, e.memory);
  case Role::Address:
    return address_expr(call, p, e);
  case Role::Pointer: {
    // An address passed as an integer (MPI_Aint_diff's MPI_Aint) is cast.
    const std::string ct = pi.c_type ? pi.c_type : "void *";
    const bool integer = ct.find('*') == std::string::npos && ct.find('[') == std::string::npos;
    if (e.null)
      return integer ? "0" : "nullptr";
    const uint64_t id = static_cast<uint64_t>(e.memory);
    symbols_.pointers.insert(id);
    const std::string var = "pointer_" + std::to_string(id);
    return integer ? "reinterpret_cast<" + element_type(pi) + ">(" + var + ")" : var;
  }
  case Role::String: {
    if (e.null)
      return "nullptr";
    if (files_ && names_file(call, p)) // a file of the scratch directory (file_replay.h)
      return "proxy_file(" + std::to_string(files_->index(e.text)) + ")";
    return quote_string(e.text);
  }
  default:
    unsupported(call, p, std::string("an element of role ") + role_name(pi.role));
  }
}

// The largest integer input of a call (its count), at most 65536: output
// arrays are sized for at least that many elements.
static size_t count_bound(const Call &call) {
  int64_t bound = 0;
  for (size_t q = 0; q < call.args.size(); ++q) {
    const ParamInfo &qi = call.function->params[q];
    const CallArg &dp = call.args[q];
    if (qi.role == Role::Value && dp.has_in && !dp.in.array && dp.in.elements.size() == 1)
      bound = std::max(bound, std::min<int64_t>(dp.in.elements[0].integer, 65536));
  }
  return static_cast<size_t>(bound);
}

std::string CallEmitter::out_scalar(const ParamInfo &param) {
  const std::string type = element_type(param);
  std::string name = std::string("out_") + (param.name && *param.name ? param.name : "value");
  for (char &c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      c = '_';
  auto it = symbols_.scalars.find(name);
  if ((it != symbols_.scalars.end() && it->second != type) || symbols_.arrays.count(name)) {
    std::string suffix = type;
    for (char &c : suffix)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
    name += "_" + suffix;
  }
  symbols_.scalars[name] = type;
  return name;
}

std::string CallEmitter::out_array(const ParamInfo &param, size_t n) {
  const std::string type = element_type(param);
  std::string name = std::string("out_") + (param.name && *param.name ? param.name : "array");
  for (char &c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      c = '_';
  auto it = symbols_.arrays.find(name);
  if ((it != symbols_.arrays.end() && it->second.first != type) || symbols_.scalars.count(name)) {
    std::string suffix = type;
    for (char &c : suffix)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
    name += "_" + suffix;
    it = symbols_.arrays.find(name);
  }
  const size_t len = std::max<size_t>(n, 1);
  if (it == symbols_.arrays.end())
    symbols_.arrays[name] = {type, len};
  else
    it->second.second = std::max(it->second.second, len);
  return name;
}

// The strings of a StringArray element (MPI_Comm_spawn's argv, one entry
// of MPI_Comm_spawn_multiple's array_of_argv, its array_of_commands) as
// local char arrays declared in `pre`, then `char *var[]` of them, with a
// NULL entry last where the trace's array was NULL-terminated; returns var.
static std::string string_array_decl(const CallElement &e, const std::string &var, bool terminated,
                                     std::vector<std::string> &pre) {
  std::vector<std::string> items;
  for (size_t i = 0; i < e.items.size(); ++i) {
    if (e.items[i].null) {
      items.push_back("nullptr");
      continue;
    }
    const std::string s = var + "_" + std::to_string(i);
    pre.push_back("char " + s + "[] = " + quote_string(e.items[i].text) + ";");
    items.push_back(s);
  }
  if (terminated || items.empty())
    items.push_back("nullptr");
  pre.push_back("char *" + var + "[] = {" + join(items) + "};");
  return var;
}

// One parameter of the call being emitted: its declaration, its name in
// the proxy, and the values the trace recorded going in and coming out.
struct CallEmitter::Arg {
  const Call &call;
  size_t p; // its position
  const ParamInfo &pi;
  std::string name;
  const CallValue *in, *out, *any; // null where not recorded; any: in, else out
};

// What emit builds for one call: the lines before and after it, its
// arguments, whether those lines need a block of their own (they declare
// arrays), and "array, n" where the call repeats until all n requests of
// the array are null.
struct CallEmitter::Lines {
  std::vector<std::string> pre, post, args;
  bool block = false;
  std::string until_done;
};

std::vector<std::string> CallEmitter::emit(const Call &call) {
  if (is_record(call.function_id)) // not a call (record_lines.h)
    return record_lines(
        call, [this](const HandleRef &h) { return handle_expr(h); }, symbols_);
  const FunctionInfo &fn = *call.function;
  Lines l;
  for (size_t p = 0; p < call.args.size(); ++p) {
    const CallArg &dp = call.args[p];
    const Arg a{call,
                p,
                fn.params[p],
                param_name(fn, p),
                dp.has_in ? &dp.in : nullptr,
                dp.has_out ? &dp.out : nullptr,
                dp.any()};
    emit_arg(a, l);
  }
  const MemoryLines memory = mpi_memory_lines(call, symbols_);
  l.pre.insert(l.pre.end(), memory.pre.begin(), memory.pre.end());
  l.post.insert(l.post.end(), memory.post.begin(), memory.post.end());
  address_lines(call, l.args, l.pre, l.post);
  return call_lines(fn, l);
}

// The call between its lines before and after, in a block where they
// declare arrays, in a loop where it repeats until its requests are done.
std::vector<std::string> CallEmitter::call_lines(const FunctionInfo &fn, const Lines &l) {
  std::vector<std::string> lines;
  const std::string indent = l.block ? "  " : "";
  if (l.block)
    lines.push_back("{");
  for (const std::string &line : l.pre)
    lines.push_back(indent + line);
  if (!l.until_done.empty()) {
    lines.push_back(indent + "do {");
    lines.push_back(indent + "  " + fn.name + "(" + join(l.args) + ");");
    lines.push_back(indent + "} while (!requests_done(" + l.until_done + "));");
  } else {
    lines.push_back(indent + fn.name + "(" + join(l.args) + ");");
  }
  for (const std::string &line : l.post)
    lines.push_back(indent + line);
  if (l.block)
    lines.push_back("}");
  return lines;
}

// One argument: by its role where that decides, else by whether it is one
// value or an array, and which way it goes.
void CallEmitter::emit_arg(const Arg &a, Lines &l) {
  switch (a.pi.role) {
  case Role::Varargs:
    return;
  case Role::StringArray:
  case Role::ArgvArray:
    return emit_string_array(a, l);
  case Role::Opaque:
    return emit_opaque(a, l);
  case Role::Status:
    return emit_status(a, l);
  default:
    break;
  }
  if (!a.any) {
    l.args.push_back("nullptr");
    return;
  }
  if (!a.any->array)
    return emit_value(a, l);
  const bool is_array = a.pi.flags & kFlagArray;
  if (!is_array && a.pi.dir == Direction::Out)
    return emit_out_value(a, l);
  if (!is_array && a.pi.dir == Direction::InOut && a.in && !a.in->null &&
      a.in->elements.size() == 1)
    return emit_inout_value(a, l);
  // Arrays (and pointers to one input value).
  if (a.pi.dir == Direction::Out)
    return emit_out_array(a, l);
  emit_in_array(a, l);
}

// MPI_Comm_spawn's argv, MPI_Comm_spawn_multiple's array_of_commands and
// array_of_argv.
void CallEmitter::emit_string_array(const Arg &a, Lines &l) {
  // The spawned command's arguments, as the traced program passed them;
  // NULL where it passed MPI_ARGV_NULL / MPI_ARGVS_NULL, and at the
  // ranks other than the root, where they are not significant.
  const ParamInfo &pi = a.pi;
  const bool argv = pi.role == Role::ArgvArray || (pi.flags & kFlagNullTerminated);
  const CallElement *e = a.any && !a.any->elements.empty() ? &a.any->elements[0] : nullptr;
  if (!e || e->null) {
    l.args.push_back(!argv                        ? "nullptr"
                     : pi.role == Role::ArgvArray ? "MPI_ARGVS_NULL"
                                                  : "MPI_ARGV_NULL");
    return;
  }
  // Not `argv`: the proxy's main has its own.
  const std::string var = a.name == "argv" ? "child_argv" : a.name;
  l.block = true;
  if (pi.role == Role::StringArray) {
    l.args.push_back(string_array_decl(*e, var, argv, l.pre));
    return;
  }
  std::vector<std::string> rows;
  for (size_t i = 0; i < e->items.size(); ++i)
    rows.push_back(e->items[i].null ? std::string("MPI_ARGV_NULL")
                                    : string_array_decl(e->items[i], var + "_" + std::to_string(i),
                                                        true, l.pre));
  if (rows.empty())
    rows.push_back("nullptr");
  l.pre.push_back("char **" + var + "[] = {" + join(rows) + "};");
  l.args.push_back(var);
}

// An opaque pointer: only MPI_Init's &argc and &argv, or NULL.
void CallEmitter::emit_opaque(const Arg &a, Lines &l) {
  if (!a.any || a.any->elements.empty() || a.any->elements[0].null)
    l.args.push_back("nullptr");
  else if (a.name == "argc" || a.name == "argv")
    l.args.push_back("&" + a.name);
  else
    unsupported(a.call, a.p, "an opaque pointer");
}

void CallEmitter::emit_status(const Arg &a, Lines &l) {
  const CallValue *v = a.out ? a.out : a.in;
  if (a.pi.flags & kFlagArray) {
    if (!v || v->null || kept_sources(*v)) {
      l.args.push_back("MPI_STATUSES_IGNORE");
    } else {
      symbols_.statuses = std::max(symbols_.statuses,
                                   std::max<size_t>({v->elements.size(), count_bound(a.call), 1}));
      l.args.push_back("statuses");
    }
    return;
  }
  if (a.in && a.pi.dir != Direction::Out)
    return emit_status_in(a, l);
  if (!v || v->elements.empty() || v->elements[0].status.ignored()) {
    l.args.push_back("MPI_STATUS_IGNORE");
  } else {
    symbols_.status = true;
    l.args.push_back("&status");
  }
}

// MPI_Test_cancelled reads the cancelled bit, which the call's flag
// recorded: "1" or "0" (any other call: "0").
static std::string cancelled_bit(const Call &call) {
  const FunctionInfo &fn = *call.function;
  std::string cancelled = "0";
  if (std::string(fn.name) == "MPI_Test_cancelled")
    for (size_t q = 0; q < call.args.size(); ++q)
      if (fn.params[q].name && std::string(fn.params[q].name) == "flag" && call.args[q].has_out &&
          call.args[q].out.elements.size() == 1)
        cancelled = call.args[q].out.elements[0].integer ? "1" : "0";
  return cancelled;
}

// A status the call reads (MPI_Get_count) or updates
// (MPI_Status_set_elements_x): as it was recorded before the call.
void CallEmitter::emit_status_in(const Arg &a, Lines &l) {
  const StatusRef &s = a.in->elements.empty() ? StatusRef{} : a.in->elements[0].status;
  std::string src = "MPI_ANY_SOURCE", tag = "MPI_ANY_TAG", bytes = "0";
  if (s.kind == sig::kStatusFull) {
    src = status_source(a.call, s.source);
    if (!s.tag.any)
      tag = int_literal(s.tag.tag);
  }
  if (s.kind == sig::kStatusFull || s.kind == sig::kStatusCountOnly)
    bytes = int_literal(s.count_bytes);
  if (s.kind == sig::kStatusIgnored) {
    l.args.push_back("MPI_STATUS_IGNORE");
    return;
  }
  symbols_.status = true;
  l.pre.push_back("status = make_status(" + src + ", " + tag + ", " + bytes + ", " +
                  cancelled_bit(a.call) + ");");
  l.args.push_back("&status");
}

// One element passed by value (or a buffer, string, pointer).
void CallEmitter::emit_value(const Arg &a, Lines &l) {
  const ParamInfo &pi = a.pi;
  if (pi.role == Role::Pointer && pi.dir != Direction::In) {
    const CallValue *v = a.out ? a.out : a.in;
    if (std::string(pi.c_type ? pi.c_type : "void").find("void") == std::string::npos) {
      // An address returned as an integer (MPI_Get_address).
      l.args.push_back("&" + out_scalar(pi));
    } else if (v && !v->elements.empty() && !v->elements[0].null) {
      const uint64_t id = static_cast<uint64_t>(v->elements[0].memory);
      symbols_.pointers.insert(id);
      l.args.push_back("&pointer_" + std::to_string(id));
    } else {
      l.args.push_back("&" + out_scalar(pi));
      symbols_.scalars[l.args.back().substr(1)] = "void *";
    }
    return;
  }
  if (pi.role == Role::String && pi.dir != Direction::In) {
    // MPI leaves it unchanged when there is nothing to return (a missing
    // info key): start from an empty string as the traced program did.
    const std::string var = out_array(pi, 4096);
    l.pre.push_back(var + "[0] = '\\0';");
    l.args.push_back(var);
    return;
  }
  if (a.any->elements.empty())
    unsupported(a.call, a.p, "an empty value");
  if (pi.role == Role::Buffer && a.any->elements[0].memory >= 0)
    size_buffer(a.call, a.p, static_cast<uint64_t>(a.any->elements[0].memory), l.pre);
  l.args.push_back(element_expr(a.call, a.p, a.any->elements[0]));
}

// A pointer to one output value; one MPI did not write (its flag was
// false) still gets a variable: here MPI might write it.
void CallEmitter::emit_out_value(const Arg &a, Lines &l) {
  const CallValue *out = a.out;
  if (!out || out->null || out->elements.empty()) {
    l.args.push_back(a.pi.flags & kFlagWhenFlag ? "&" + out_scalar(a.pi) : "nullptr");
    return;
  }
  if (a.pi.role == Role::Handle && out->elements[0].handle.user()) {
    l.args.push_back("&" + handle_expr(out->elements[0].handle));
    return;
  }
  l.args.push_back("&" + out_scalar(a.pi));
}

// A pointer to one value MPI reads and writes.
void CallEmitter::emit_inout_value(const Arg &a, Lines &l) {
  const ParamInfo &pi = a.pi;
  const CallElement &e = a.in->elements[0];
  // A freed handle is passed as a copy: MPI may hand out one handle value
  // twice (MPI_Comm_group of a communicator and of its dup), which the
  // program holds in two variables and frees twice.
  if (pi.role == Role::Handle &&
      (pi.action != HandleAction::Free || pi.handle_kind == HandleKind::Request) &&
      e.handle.user()) {
    l.args.push_back("&" + handle_expr(e.handle));
    return;
  }
  const std::string var = out_scalar(pi);
  l.pre.push_back(var + " = " + element_expr(a.call, a.p, e) + ";");
  l.args.push_back("&" + var);
}

// Graph weights: the trace stores MPI_UNWEIGHTED as an absent array and
// MPI_WEIGHTS_EMPTY as an empty one (docs/design/addresses.md), in and out
// (MPI_Dist_graph_neighbors of an unweighted graph).
static bool graph_weights(const std::string &name) {
  return name.find("weights") != std::string::npos;
}

// An array MPI writes: a variable long enough for what it may write, and
// for handles, their variables set from it after the call.
void CallEmitter::emit_out_array(const Arg &a, Lines &l) {
  const ParamInfo &pi = a.pi;
  const CallValue *out = a.out;
  if (!out || out->null) {
    l.args.push_back(graph_weights(a.name) ? "MPI_UNWEIGHTED" : "nullptr");
    return;
  }
  // The recorded length may be what this run returned (Waitsome's
  // outcount indices); MPI may write up to the call's count.
  const bool matrix = pi.flags & kFlagMatrix3;
  const size_t n =
      std::max(out->elements.size() / (matrix ? 3 : 1), matrix ? size_t{0} : count_bound(a.call));
  const std::string var = out_array(pi, matrix ? n * 3 : n);
  l.args.push_back(var);
  if (pi.role == Role::Handle)
    for (size_t i = 0; i < out->elements.size(); ++i)
      if (out->elements[i].handle.user())
        l.post.push_back(handle_expr(out->elements[i].handle) + " = " + var + "[" +
                         std::to_string(i) + "];");
}

// The declaration of input array `name` holding `items` (rows of three for
// a matrix), long enough for the `out_n` elements MPI may write back.
static std::string array_decl(const ParamInfo &pi, const std::string &name,
                              const std::vector<std::string> &items, size_t out_n) {
  const bool matrix = pi.flags & kFlagMatrix3;
  const size_t len = std::max<size_t>({items.size(), out_n, size_t{1}});
  std::string decl = (pi.dir == Direction::In && (pi.flags & kFlagConst) ? "const " : "") +
                     element_type(pi) + " " + name;
  if (matrix) {
    std::vector<std::string> rows;
    for (size_t i = 0; i + 2 < items.size(); i += 3)
      rows.push_back("{" + items[i] + ", " + items[i + 1] + ", " + items[i + 2] + "}");
    decl += "[" + std::to_string(std::max<size_t>(len / 3, 1)) + "][3] = {" + join(rows) + "};";
  } else {
    decl += "[" + std::to_string(len) + "] = {" + join(items) + "};";
  }
  return decl;
}

// An array MPI reads (and may write): declared in the call's block with
// the recorded elements.
void CallEmitter::emit_in_array(const Arg &a, Lines &l) {
  const ParamInfo &pi = a.pi;
  const CallValue *in = a.in, *out = a.out;
  const bool weights = graph_weights(a.name);
  if (!in || in->null) {
    l.args.push_back(weights ? "MPI_UNWEIGHTED" : "nullptr");
    return;
  }
  if (weights && in->elements.empty()) {
    l.args.push_back("MPI_WEIGHTS_EMPTY");
    return;
  }
  std::vector<std::string> items;
  const bool any_completion = completes_any(a.call.function->name) && pi.role == Role::Handle &&
                              pi.handle_kind == HandleKind::Request;
  bool active = false;
  for (size_t i = 0; i < in->elements.size(); ++i) {
    CallElement e = in->elements[i];
    if (any_completion && e.handle.null())
      // A slot completed earlier in the traced run may still be active in
      // this run (completion order is not deterministic): the request
      // variable that occupies the slot elsewhere in the trace, which MPI
      // has set to MPI_REQUEST_NULL if it did complete here.
      e.handle = slot_request(in->elements.size(), i, e.handle);
    active |= e.handle.user();
    items.push_back(element_expr(a.call, a.p, e));
  }
  if (any_completion && active && out && !out->null && !options_.order) {
    bool all_null = true;
    for (const CallElement &e : out->elements)
      all_null &= e.handle.null();
    // The call that completed the last request: call until all are done.
    if (all_null)
      l.until_done = a.name + ", " + std::to_string(in->elements.size());
  }
  l.pre.push_back(array_decl(pi, a.name, items, out && !out->null ? out->elements.size() : 0));
  l.block = true;
  l.args.push_back(a.name);
  if (pi.dir == Direction::InOut && pi.role == Role::Handle)
    handles_after(a, any_completion, l.post);
}

// An in-out handle array (the requests of MPI_Waitall): after the call,
// each handle's variable takes what MPI left in its slot.
void CallEmitter::handles_after(const Arg &a, bool any_completion, std::vector<std::string> &post) {
  const CallValue *in = a.in, *out = a.out;
  for (size_t i = 0; i < in->elements.size(); ++i) {
    HandleRef h = in->elements[i].handle;
    if (any_completion && h.null())
      h = slot_request(in->elements.size(), i, h);
    if (!h.user() && out && i < out->elements.size())
      h = out->elements[i].handle;
    if (h.user())
      post.push_back(handle_expr(h) + " = " + a.name + "[" + std::to_string(i) + "];");
  }
}

} // namespace pilgrim::proxygen
