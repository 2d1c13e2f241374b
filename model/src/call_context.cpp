#include "pilgrim/call_context.h"

#include "pilgrim/cartesian_offset.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/datatype_sizes.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {

namespace {
constexpr uint64_t kWorldIndex = 0; // kPredefinedCommNames
constexpr uint64_t kSelfIndex = 1;
// The first version whose completion statuses are relative to the request's
// communicator (docs/FORMAT.md §10).
constexpr uint16_t kRequestRelativeStatusVersion = 3;

// The single element of parameter `i`, or nullptr.
const DecodedElement *single(const DecodedCall &call, int i) {
  if (i < 0 || static_cast<size_t>(i) >= call.params.size())
    return nullptr;
  const DecodedValue *v = call.params[static_cast<size_t>(i)].any();
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

int first_param(const FunctionInfo &f, HandleKind kind, bool skip_created) {
  for (uint8_t i = 0; i < f.nparams; ++i)
    if (f.params[i].role == Role::Handle && f.params[i].handle_kind == kind &&
        !(skip_created && f.params[i].action == HandleAction::Create))
      return i;
  return -1;
}

// What the source of status `element` of a call without a communicator
// parameter is relative to, in version 3: the request it belongs to.
RankBase request_base(const DecodedCall &call, size_t param, size_t element,
                      const CallContext &ctx) {
  const int req = first_param(*call.function, HandleKind::Request, true);
  if (req < 0 || !call.params[static_cast<size_t>(req)].has_in)
    return RankBase{ctx.world_rank, nullptr}; // MPI_Mrecv: no request, no communicator
  const DecodedElement *r = status_request(call, param, element);
  return r ? ctx.request(r->code) : RankBase{};
}

} // namespace

RankBase CallContext::comm(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  if (h.kind == HandleCode::Predefined) {
    if (h.index == kWorldIndex)
      return RankBase{world_rank, nullptr};
    if (h.index == kSelfIndex)
      return RankBase{0, nullptr};
    return {};
  }
  if (h.kind == HandleCode::User && state)
    return state->comm(h.index);
  return {};
}

int64_t CallContext::datatype_size(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  if (h.kind == HandleCode::Predefined)
    return predefined_datatype_size(static_cast<size_t>(h.index));
  if (h.kind == HandleCode::Null)
    return -2;
  const DatatypeLayout *l =
      h.kind == HandleCode::User && state ? state->datatype(handle_code) : nullptr;
  return l && l->size >= 0 ? l->size : -1;
}

int64_t CallContext::rank_in_window(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  return h.kind == HandleCode::User && state ? state->window_rank(h.index) : -1;
}

RankBase CallContext::request(uint64_t handle_code) const {
  return state ? state->request(handle_code) : RankBase{};
}

const DecodedElement *status_request(const DecodedCall &call, size_t param, size_t element) {
  if (!call.function || param >= call.params.size() || param >= call.function->nparams)
    return nullptr;
  const FunctionInfo &f = *call.function;
  const int req = first_param(f, HandleKind::Request, true);
  if (req < 0 || !call.params[static_cast<size_t>(req)].has_in)
    return nullptr;
  const DecodedValue &requests = call.params[static_cast<size_t>(req)].in;
  uint64_t which = element;
  const int ref = f.params[param].ref;
  if (ref >= 0 && ref < f.nparams) {
    const DecodedValue *idx = call.params[static_cast<size_t>(ref)].has_out
                                  ? &call.params[static_cast<size_t>(ref)].out
                                  : call.params[static_cast<size_t>(ref)].any();
    if (!idx || idx->null || element >= idx->elements.size() || idx->elements[element].integer < 0)
      return nullptr;
    which = static_cast<uint64_t>(idx->elements[element].integer);
  }
  if (requests.null || which >= requests.elements.size())
    return nullptr;
  return &requests.elements[which];
}

RankBase base_for(const DecodedCall &call, size_t param, size_t element, const CallContext &ctx) {
  if (!call.function || param >= call.params.size() || param >= call.function->nparams)
    return {};
  const FunctionInfo &f = *call.function;
  if (f.params[param].role == Role::Status) {
    // A Status's ref names the "which request completed" parameter, not a
    // communicator: its source is relative to the call's communicator.
    const DecodedElement *comm = single(call, first_param(f, HandleKind::Comm, false));
    if (first_param(f, HandleKind::Comm, false) >= 0)
      return comm ? ctx.comm(comm->code) : RankBase{};
    if (ctx.format_version < kRequestRelativeStatusVersion)
      return RankBase{ctx.world_rank, nullptr};
    return request_base(call, param, element, ctx);
  }
  const int ref = f.params[param].ref;
  const DecodedElement *target = single(call, ref);
  if (!target || f.params[ref].role != Role::Handle)
    return {};
  if (f.params[ref].handle_kind == HandleKind::Comm)
    return ctx.comm(target->code);
  if (f.params[ref].handle_kind == HandleKind::Win)
    return RankBase{ctx.rank_in_window(target->code), nullptr};
  return {};
}

int64_t caller_rank_for(const DecodedCall &call, size_t param, const CallContext &ctx) {
  return base_for(call, param, 0, ctx).rank;
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
  if (rc.kind == RankCode::Cartesian && caller_rank >= 0 && cart &&
      cart->dims.size() <= static_cast<size_t>(kCartMaxDims)) {
    return cart_decode(static_cast<int>(cart->dims.size()), cart->dims.data(), cart->periods.data(),
                       caller_rank, rc.value, rank);
  }
  return false;
}

} // namespace pilgrim
