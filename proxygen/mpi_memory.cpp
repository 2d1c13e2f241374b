#include "mpi_memory.h"

#include <algorithm>
#include <cstring>

#include "pilgrim/signature_encoding.h"
#include "pilgrim/value_codes.h"

namespace pilgrim::proxygen {

namespace {

bool named(const ParamInfo &p, const char *name) {
  return p.name && std::strcmp(p.name, name) == 0;
}

// The byte size parameter of a pointer output that is memory MPI allocated:
// the function table's `ref` (FORMAT.md §4); in traces written before it
// said so, the `size` of a call returning a `baseptr`.
int memory_size_param(const FunctionInfo &fn, size_t p) {
  const ParamInfo &pi = fn.params[p];
  if (pi.role != Role::Pointer || pi.dir == Direction::In)
    return -1;
  if (pi.flags & kFlagWhenFlag) // ref is the flag (MPI_Comm_get_attr's attribute_val)
    return -1;
  if (pi.ref >= 0)
    return pi.ref;
  if (!named(pi, "baseptr"))
    return -1;
  for (size_t q = 0; q < fn.nparams; ++q)
    if (named(fn.params[q], "size") && fn.params[q].role == Role::Value)
      return static_cast<int>(q);
  return -1;
}

// The user window the call names or creates ("win_3"), if any.
std::string window_of(const DecodedCall &call, ProxySymbols &symbols) {
  for (size_t p = 0; p < call.params.size(); ++p) {
    const ParamInfo &pi = call.function->params[p];
    if (pi.role != Role::Handle || pi.handle_kind != HandleKind::Win)
      continue;
    const DecodedParam &dp = call.params[p];
    const DecodedValue *v = dp.has_out ? &dp.out : dp.any();
    if (!v || v->elements.empty())
      continue;
    const HandleCode hc = decode_handle_code(v->elements[0].code);
    if (hc.kind != HandleCode::User)
      continue;
    symbols.handles.insert({HandleKind::Win, hc.index});
    return handle_variable(HandleKind::Win, hc.index);
  }
  return "";
}

std::string buffer_of(uint64_t id, ProxySymbols &symbols) {
  uint64_t &size = symbols.buffers[id];
  size = std::max<uint64_t>(size, 64);
  const std::string b = "buf_" + std::to_string(id);
  return b + ", " + b + "_size";
}

} // namespace

MemoryLines mpi_memory_lines(const DecodedCall &call, ProxySymbols &symbols) {
  MemoryLines lines;
  const FunctionInfo &fn = *call.function;
  for (size_t p = 0; p < call.params.size(); ++p) {
    const ParamInfo &pi = fn.params[p];
    const DecodedParam &dp = call.params[p];
    // A freed window's memory goes back before MPI_Win_free.
    if (pi.role == Role::Handle && pi.handle_kind == HandleKind::Win &&
        pi.action == HandleAction::Free && dp.has_in && !dp.in.elements.empty()) {
      const HandleCode hc = decode_handle_code(dp.in.elements[0].code);
      if (hc.kind == HandleCode::User) {
        symbols.handles.insert({HandleKind::Win, hc.index});
        lines.pre.push_back("return_window_memory(" + handle_variable(HandleKind::Win, hc.index) +
                            ");");
      }
      continue;
    }
    // MPI_Free_mem's pointer.
    if (pi.role == Role::Pointer && pi.dir == Direction::In &&
        std::strcmp(fn.name, "MPI_Free_mem") == 0 && dp.has_in && !dp.in.elements.empty() &&
        dp.in.elements[0].code != 0) {
      lines.post.push_back("return_memory(pointer_" + std::to_string(dp.in.elements[0].code - 1) +
                           ");");
      continue;
    }
    const int size_param = memory_size_param(fn, p);
    if (size_param < 0 || !dp.has_out || dp.out.elements.empty() || dp.out.elements[0].code == 0)
      continue;
    // Memory of no bytes is named by nothing (MPI may return NULL or any address).
    const DecodedValue *bytes = call.params[static_cast<size_t>(size_param)].any();
    if (!bytes || bytes->elements.empty() || bytes->elements[0].integer <= 0 ||
        call.return_code != 0)
      continue;
    const uint64_t id = dp.out.elements[0].code - 1;
    std::string win = window_of(call, symbols);
    lines.post.push_back("lend_memory(" + buffer_of(id, symbols) + ", pointer_" +
                         std::to_string(id) + ", " + (win.empty() ? "MPI_WIN_NULL" : win) + ");");
  }
  return lines;
}

} // namespace pilgrim::proxygen
