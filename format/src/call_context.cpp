#include "pilgrim/call_context.h"

#include "pilgrim/cartesian_offset.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/trace_error.h"

#include <algorithm>

namespace pilgrim {

namespace {
constexpr uint64_t kWorldIndex = 0; // kPredefinedCommNames
constexpr uint64_t kSelfIndex = 1;
} // namespace

int64_t CallContext::rank_in_comm(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  if (h.kind == HandleCode::Predefined) {
    if (h.index == kWorldIndex)
      return world_rank;
    if (h.index == kSelfIndex)
      return 0;
    return -1;
  }
  if (h.kind == HandleCode::User && comms) {
    for (const CommInfo &c : *comms)
      if (c.comm_id == h.index)
        return c.rank;
  }
  return -1;
}

int64_t CallContext::rank_in_window(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  if (h.kind != HandleCode::User || !windows)
    return -1;
  auto it = std::lower_bound(windows->begin(), windows->end(), h.index,
                             [](const WindowRank &w, uint64_t id) { return w.win_id < id; });
  return it != windows->end() && it->win_id == h.index ? it->rank : -1;
}

namespace {

bool creates_windows(const FunctionInfo &f) {
  for (uint8_t i = 0; i < f.nparams; ++i)
    if (f.params[i].role == Role::Handle && f.params[i].handle_kind == HandleKind::Win &&
        f.params[i].action == HandleAction::Create)
      return true;
  return false;
}

// The caller's rank in the first communicator the call names, -1 if none.
int64_t rank_in_first_comm(const DecodedCall &call, const CallContext &ctx) {
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams; ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Handle || p.handle_kind != HandleKind::Comm ||
        p.action == HandleAction::Create)
      continue;
    const DecodedValue *v = call.params[i].any();
    if (!v || v->null || v->elements.size() != 1)
      return -1;
    return ctx.rank_in_comm(v->elements[0].code);
  }
  return -1;
}

} // namespace

std::vector<WindowRank> window_ranks(const Trace &trace, const std::vector<CstEntry> &cst,
                                     const CallContext &ctx) {
  std::vector<WindowRank> out;
  for (const CstEntry &e : cst) {
    DecodedCall call;
    try {
      const FunctionInfo *f = trace.function(signature_function_id(e.signature));
      if (!f || !creates_windows(*f))
        continue;
      call = decode_signature(trace, e.signature);
    } catch (const TraceError &) {
      continue;
    }
    const FunctionInfo &f = *call.function;
    const int64_t rank = rank_in_first_comm(call, ctx);
    for (uint8_t i = 0; i < f.nparams; ++i) {
      const ParamInfo &p = f.params[i];
      if (p.role != Role::Handle || p.handle_kind != HandleKind::Win ||
          p.action != HandleAction::Create || !call.params[i].has_out)
        continue;
      for (const DecodedElement &el : call.params[i].out.elements) {
        const HandleCode h = decode_handle_code(el.code);
        if (h.kind == HandleCode::User)
          out.push_back(WindowRank{h.index, rank});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const WindowRank &a, const WindowRank &b) {
    return a.win_id < b.win_id || (a.win_id == b.win_id && a.rank < b.rank);
  });
  // One entry per id; creations that disagree leave the rank unknown.
  std::vector<WindowRank> merged;
  for (const WindowRank &w : out) {
    if (!merged.empty() && merged.back().win_id == w.win_id) {
      if (merged.back().rank != w.rank)
        merged.back().rank = -1;
      continue;
    }
    merged.push_back(w);
  }
  return merged;
}

namespace {

// The parameter a rank-valued parameter is relative to: its Comm or Win
// `ref`, or for a Status the call's first Comm parameter. -1 when none; -2
// for a Status in a call without a communicator (relative to the world).
int reference_param(const DecodedCall &call, size_t param) {
  const FunctionInfo &f = *call.function;
  // A Status's ref names the "which request completed" parameter, not a
  // communicator: its source is relative to the call's communicator, if any.
  int ref = f.params[param].role == Role::Status ? -1 : f.params[param].ref;
  if (f.params[param].role == Role::Status) {
    for (uint8_t i = 0; i < f.nparams; ++i)
      if (f.params[i].role == Role::Handle && f.params[i].handle_kind == HandleKind::Comm) {
        ref = i;
        break;
      }
    if (ref < 0)
      return -2;
  }
  if (ref < 0 || ref >= f.nparams)
    return -1;
  const ParamInfo &rp = f.params[ref];
  if (rp.role != Role::Handle ||
      (rp.handle_kind != HandleKind::Comm && rp.handle_kind != HandleKind::Win))
    return -1;
  const DecodedValue *v = call.params[static_cast<size_t>(ref)].any();
  if (!v || v->null || v->elements.size() != 1)
    return -1;
  return ref;
}

} // namespace

const CartTopology *cart_for(const DecodedCall &call, size_t param, const CallContext &ctx) {
  if (!call.function || param >= call.params.size() || !ctx.carts)
    return nullptr;
  const int ref = reference_param(call, param);
  if (ref < 0 || call.function->params[ref].handle_kind != HandleKind::Comm)
    return nullptr;
  const HandleCode h = decode_handle_code(call.params[static_cast<size_t>(ref)].any()->elements[0].code);
  return h.kind == HandleCode::User ? find_cart(*ctx.carts, h.index) : nullptr;
}

int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx) {
  if (!call.function || param >= call.params.size())
    return -1;
  const int ref = reference_param(call, param);
  if (ref == -2)
    return ctx.world_rank; // no communicator in the call: relative to the world rank
  if (ref < 0)
    return -1;
  const DecodedValue *v = call.params[static_cast<size_t>(ref)].any();
  if (call.function->params[ref].handle_kind == HandleKind::Win)
    return ctx.rank_in_window(v->elements[0].code);
  return ctx.rank_in_comm(v->elements[0].code);
}

bool absolute_rank(uint64_t rank_code, int64_t caller_rank, int64_t &rank,
                   const CartTopology *cart) {
  const RankCode rc = decode_rank_code(rank_code);
  if (rc.kind == RankCode::Absolute) {
    rank = rc.value;
    return true;
  }
  if (rc.kind == RankCode::Relative && caller_rank >= 0) {
    return !__builtin_add_overflow(caller_rank, rc.value, &rank);
  }
  if (rc.kind == RankCode::Cartesian && caller_rank >= 0 && cart && cart->known) {
    return cart_decode(static_cast<int>(cart->dims.size()), cart->dims.data(),
                       cart->periods.data(), caller_rank, rc.value, rank);
  }
  return false;
}

} // namespace pilgrim
