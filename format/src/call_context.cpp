#include "pilgrim/call_context.h"

#include "pilgrim/predefined_handles.h"

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

int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx) {
  if (!call.function || param >= call.params.size())
    return -1;
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
  }
  if (ref < 0 || ref >= f.nparams)
    return -1;
  const ParamInfo &rp = f.params[ref];
  if (rp.role != Role::Handle || rp.handle_kind != HandleKind::Comm)
    return -1;
  const DecodedValue *v = call.params[static_cast<size_t>(ref)].any();
  if (!v || v->null || v->elements.size() != 1)
    return -1;
  return ctx.rank_in_comm(v->elements[0].code);
}

bool absolute_rank(uint64_t rank_code, int64_t caller_rank, int64_t &rank) {
  const RankCode rc = decode_rank_code(rank_code);
  if (rc.kind == RankCode::Absolute) {
    rank = rc.value;
    return true;
  }
  if (rc.kind == RankCode::Relative && caller_rank >= 0) {
    return !__builtin_add_overflow(caller_rank, rc.value, &rank);
  }
  return false;
}

} // namespace pilgrim
