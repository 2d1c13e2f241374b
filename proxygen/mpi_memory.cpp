#include "mpi_memory.h"

#include <algorithm>
#include <cstring>

#include "pilgrim/signature_encoding.h"

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
std::string window_of(const Call &call, ProxySymbols &symbols) {
  for (const CallArg &a : call.args) {
    if (a.role() != Role::Handle || a.param->handle_kind != HandleKind::Win)
      continue;
    const CallValue *v = a.has_out ? &a.out : a.any();
    if (!v || v->elements.empty())
      continue;
    const HandleRef &h = v->elements[0].handle;
    if (!h.user())
      continue;
    symbols.handles.insert({HandleKind::Win, h.id});
    return handle_variable(HandleKind::Win, h.id);
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

MemoryLines mpi_memory_lines(const Call &call, ProxySymbols &symbols) {
  MemoryLines lines;
  const FunctionInfo &fn = *call.function;
  for (size_t p = 0; p < call.args.size(); ++p) {
    const ParamInfo &pi = fn.params[p];
    const CallArg &dp = call.args[p];
    // A freed window's memory goes back before MPI_Win_free.
    if (pi.role == Role::Handle && pi.handle_kind == HandleKind::Win &&
        pi.action == HandleAction::Free && dp.has_in && !dp.in.elements.empty()) {
      const HandleRef &h = dp.in.elements[0].handle;
      if (h.user()) {
        symbols.handles.insert({HandleKind::Win, h.id});
        lines.pre.push_back("return_window_memory(" + handle_variable(HandleKind::Win, h.id) +
                            ");");
      }
      continue;
    }
    // MPI_Free_mem's pointer.
    if (pi.role == Role::Pointer && pi.dir == Direction::In &&
        std::strcmp(fn.name, "MPI_Free_mem") == 0 && dp.has_in && !dp.in.elements.empty() &&
        !dp.in.elements[0].null) {
      lines.post.push_back("return_memory(pointer_" + std::to_string(dp.in.elements[0].memory) +
                           ");");
      continue;
    }
    const int size_param = memory_size_param(fn, p);
    if (size_param < 0 || !dp.has_out || dp.out.elements.empty() || dp.out.elements[0].null)
      continue;
    // Memory of no bytes is named by nothing (MPI may return NULL or any address).
    const CallValue *bytes = call.args[static_cast<size_t>(size_param)].any();
    if (!bytes || bytes->elements.empty() || bytes->elements[0].integer <= 0 ||
        call.return_code != 0)
      continue;
    const uint64_t id = static_cast<uint64_t>(dp.out.elements[0].memory);
    std::string win = window_of(call, symbols);
    lines.post.push_back("lend_memory(" + buffer_of(id, symbols) + ", pointer_" +
                         std::to_string(id) + ", " + (win.empty() ? "MPI_WIN_NULL" : win) + ");");
  }
  return lines;
}

} // namespace pilgrim::proxygen
