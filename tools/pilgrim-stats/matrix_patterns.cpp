#include "matrix_patterns.h"

#include <cctype>
#include <string_view>

#include "pilgrim/collective_call.h"
#include "pilgrim/message_volume.h"

namespace pilgrim::stats {

namespace {

enum class Pattern { None, Send, RootToAll, AllToRoot, AllToAll, Prefix, Neighbour };

struct Shape {
  Pattern pattern = Pattern::None;
  bool persistent = false;
  const char *buffer = nullptr; // the Buffer parameter whose blocks are sent
  bool own_block = false;       // all to all: every peer gets the caller's block (Allgather)
  bool barrier = false;         // no data: one message of 0 bytes per pair
  bool exclusive = false;       // Exscan (same pattern as Scan)
};

bool ends_with(std::string_view s, std::string_view end) {
  return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

// The blocking collective a nonblocking one (MPI_Ibcast) starts.
std::string blocking_name(std::string_view name) {
  if (name.substr(0, 5) != "MPI_I" || name.size() < 6)
    return std::string(name);
  std::string b = "MPI_" + std::string(name.substr(5));
  b[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(b[4])));
  return is_blocking_collective(b) ? b : std::string(name);
}

Shape shape_of(std::string_view name) {
  Shape s;
  if (ends_with(name, "_c"))
    name.remove_suffix(2);
  if (name == "MPI_Send" || name == "MPI_Bsend" || name == "MPI_Ssend" || name == "MPI_Rsend" ||
      name == "MPI_Isend" || name == "MPI_Ibsend" || name == "MPI_Issend" || name == "MPI_Irsend" ||
      name == "MPI_Sendrecv_replace" || name == "MPI_Isendrecv_replace")
    return {Pattern::Send, false, "buf"};
  if (name == "MPI_Sendrecv" || name == "MPI_Isendrecv")
    return {Pattern::Send, false, "sendbuf"};
  if (name == "MPI_Send_init" || name == "MPI_Bsend_init" || name == "MPI_Ssend_init" ||
      name == "MPI_Rsend_init")
    return {Pattern::Send, true, "buf"};
  std::string base(name);
  if (ends_with(base, "_init")) {
    base.resize(base.size() - 5);
    s.persistent = true;
  }
  base = blocking_name(base);
  if (!is_blocking_collective(base))
    return {};
  if (base == "MPI_Bcast") {
    s.pattern = Pattern::RootToAll;
    s.buffer = "buffer";
  } else if (base == "MPI_Scatter" || base == "MPI_Scatterv") {
    s.pattern = Pattern::RootToAll;
    s.buffer = "sendbuf";
  } else if (base == "MPI_Gather" || base == "MPI_Gatherv" || base == "MPI_Reduce") {
    s.pattern = Pattern::AllToRoot;
    s.buffer = "sendbuf";
  } else if (base == "MPI_Scan" || base == "MPI_Exscan") {
    s.pattern = Pattern::Prefix;
    s.buffer = "sendbuf";
    s.exclusive = base == "MPI_Exscan";
  } else if (base == "MPI_Barrier") {
    s.pattern = Pattern::AllToAll;
    s.barrier = true;
  } else if (base.rfind("MPI_Neighbor_", 0) == 0) {
    s.pattern = Pattern::Neighbour;
  } else { // Allgather(v), Allreduce, Alltoall(v|w), Reduce_scatter(_block)
    s.pattern = Pattern::AllToAll;
    s.buffer = "sendbuf";
    s.own_block = base == "MPI_Allgather" || base == "MPI_Allgatherv";
  }
  return s;
}

// The index of parameter `name` in call.args; -1 none.
int64_t arg_index(const Call &call, const char *name) {
  for (size_t i = 0; i < call.args.size(); ++i)
    if (call.args[i].param && std::string_view(call.args[i].param->name) == name)
      return static_cast<int64_t>(i);
  return -1;
}

// The memory a Buffer argument points to (kMemoryInPlace, ...); kMemoryNull when absent.
int64_t buffer_memory(const Call &call, int64_t index) {
  if (index < 0)
    return kMemoryNull;
  const CallValue *v = call.args[static_cast<size_t>(index)].any();
  return v && !v->null && v->elements.size() == 1 ? v->elements[0].memory : kMemoryNull;
}

// The blocks the call sends: its send buffer's, or, with MPI_IN_PLACE, the
// receive buffer's (which then holds the caller's contribution).
BufferBlocks sent_blocks(const Call &call, const char *buffer) {
  int64_t index = arg_index(call, buffer);
  if (index >= 0 && buffer_memory(call, index) == kMemoryInPlace)
    index = arg_index(call, "recvbuf");
  if (index < 0)
    return BufferBlocks{{}, {}, false};
  return buffer_blocks(call, static_cast<size_t>(index));
}

Flow block_flow(const BufferBlocks &b, int64_t peer, int64_t block) {
  Flow f;
  f.peer = peer;
  const size_t k = b.bytes.size() == 1 ? 0 : static_cast<size_t>(block);
  if (block < 0 || k >= b.bytes.size() || !b.known[k]) {
    f.sized = false;
    return f;
  }
  f.bytes = b.bytes[k];
  return f;
}

const RankRef *rank_arg(const Call &call, const char *name) {
  const CallArg *a = call.arg(name);
  const CallValue *v = a ? a->any() : nullptr;
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0].rank : nullptr;
}

uint64_t request_id(const CallElement &e) { return e.handle.id; }

} // namespace

bool has_flows(const Call &call) {
  if (!call.name())
    return false;
  const std::string_view name = call.name();
  return shape_of(name).pattern != Pattern::None || name == "MPI_Start" || name == "MPI_Startall";
}

CallFlows call_flows(const Call &call, const CommPosition &where) {
  CallFlows out;
  if (!call.name())
    return out;
  const std::string_view name = call.name();
  if (name == "MPI_Start" || name == "MPI_Startall") {
    const CallArg *a = call.arg(name == "MPI_Start" ? "request" : "array_of_requests");
    const CallValue *v = a ? (a->has_in ? &a->in : a->any()) : nullptr;
    if (v && !v->null)
      for (const CallElement &e : v->elements)
        if (e.handle.user())
          out.started.push_back(request_id(e));
    out.action = CallFlows::Action::Start;
    return out;
  }
  const Shape s = shape_of(name);
  if (s.pattern == Pattern::None)
    return out;
  out.kind = s.pattern == Pattern::Send ? MatrixKind::PointToPoint : MatrixKind::Collective;
  if (s.pattern == Pattern::Neighbour) {
    out.action = CallFlows::Action::Uncounted;
    return out;
  }
  out.action = CallFlows::Action::Count;
  if (s.persistent) {
    const CallArg *r = call.arg("request");
    const CallValue *v = r ? (r->has_out ? &r->out : r->any()) : nullptr;
    if (!v || v->null || v->elements.size() != 1 || !v->elements[0].handle.user())
      return CallFlows{}; // no request made: nothing ever sent
    out.action = CallFlows::Action::Persist;
    out.request = request_id(v->elements[0]);
  }
  const int64_t c = where.caller;
  const BufferBlocks blocks =
      s.barrier ? BufferBlocks{{0}, {true}, true} : sent_blocks(call, s.buffer);
  switch (s.pattern) {
  case Pattern::Send: {
    const RankRef *dest = rank_arg(call, "dest");
    if (!dest || dest->kind == RankCode::ProcNull)
      return out.action == CallFlows::Action::Persist ? out : CallFlows{};
    Flow f = block_flow(blocks, dest->known() ? dest->rank : -1, 0);
    if (!blocks.complete)
      f.sized = false;
    out.flows.push_back(f);
    break;
  }
  case Pattern::RootToAll: {
    const RankRef *root = rank_arg(call, "root");
    if (!root)
      break;
    const bool is_root =
        where.inter ? root->kind == RankCode::Root : root->known() && c >= 0 && root->rank == c;
    if (!is_root)
      break;
    for (int64_t j = 0; j < where.peers; ++j)
      if (where.inter || j != c)
        out.flows.push_back(block_flow(blocks, j, j));
    break;
  }
  case Pattern::AllToRoot: {
    const RankRef *root = rank_arg(call, "root");
    if (!root || root->kind == RankCode::Root || root->kind == RankCode::ProcNull)
      break;
    if (!where.inter && (c < 0 || !root->known()))
      out.flows.push_back(Flow{-1, 0, false}); // who is the root, or is it us: unknown
    else if (where.inter || root->rank != c)
      out.flows.push_back(block_flow(blocks, root->known() ? root->rank : -1, 0));
    break;
  }
  case Pattern::AllToAll:
    for (int64_t j = 0; j < where.peers; ++j)
      if (where.inter || j != c)
        out.flows.push_back(block_flow(blocks, j, s.own_block ? c : j));
    break;
  case Pattern::Prefix:
    for (int64_t j = c < 0 ? 0 : c + 1; j < where.peers; ++j)
      out.flows.push_back(block_flow(blocks, c < 0 ? -1 : j, 0));
    break;
  default:
    break;
  }
  return out;
}

} // namespace pilgrim::stats
