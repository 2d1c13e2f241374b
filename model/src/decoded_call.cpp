#include "pilgrim/decoded_call.h"

#include <algorithm>
#include <cstring>

#include "pilgrim/predefined_handles.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim {

namespace {

// A StringArray's strings, or (`argv`) an ArgvArray's StringArrays.
void resolve_items(CallElement &out, bool argv, const DecodedElement &e) {
  out.null = e.code == 0;
  out.items.reserve(e.items.size());
  for (const DecodedElement &item : e.items) {
    CallElement c;
    c.coded = &item;
    if (argv) {
      resolve_items(c, false, item); // a StringArray
    } else {
      c.null = item.code == 0;
      c.text = item.text;
    }
    out.items.push_back(std::move(c));
  }
}

StatusRef resolve_status(const DecodedStatus &s, const RankBase &base) {
  StatusRef out;
  out.kind = s.kind;
  out.count_bytes = s.count_bytes;
  if (out.has_source())
    out.source = resolve_rank(s.source_code, base);
  if (s.kind == sig::kStatusFull || s.kind == sig::kStatusMatchKept)
    out.tag = resolve_tag(s.tag_code);
  return out;
}

// Resolves `e` into `c`, reusing c's storage (its text and items).
void resolve_element(CallElement &c, const ParamInfo &p, const DecodedElement &e,
                     const RankBase &base, const CallContext &ctx) {
  c.rank = RankRef{};
  c.tag = TagRef{};
  c.handle = HandleRef{};
  c.status = StatusRef{};
  c.memory = kMemoryNull;
  c.null = false;
  c.text.clear();
  c.items.clear();
  c.coded = &e;
  c.integer = e.integer;
  c.rank_stride = 0;
  c.rank_base = e.integer;
  c.offset_known = true;
  c.real = e.real;
  switch (p.role) {
  case Role::Rank:
    c.rank = resolve_rank(e.code, base);
    break;
  case Role::Tag:
    c.tag = resolve_tag(e.code);
    break;
  case Role::Handle:
    c.handle = resolve_handle(p.handle_kind, e.code);
    if (p.handle_kind == HandleKind::Datatype)
      c.handle.size = ctx.datatype_size(e.code);
    c.null = c.handle.null();
    break;
  case Role::Callback:
    c.handle = resolve_callback(e.code);
    c.null = c.handle.null();
    break;
  case Role::Status:
    c.status = resolve_status(e.status, base);
    break;
  case Role::Buffer:
    c.memory = e.code == sig::kBufferNull      ? kMemoryNull
               : e.code == sig::kBufferInPlace ? kMemoryInPlace
               : e.code == sig::kBufferBottom  ? kMemoryBottom
                                               : static_cast<int64_t>(e.code - sig::kBufferFirstId);
    c.null = e.code == sig::kBufferNull;
    break;
  case Role::Pointer:
    c.memory = e.code == sig::kPointerNull ? kMemoryNull : static_cast<int64_t>(e.code - 1);
    c.null = e.code == sig::kPointerNull;
    break;
  case Role::Address:
    c.memory = e.code < sig::kAddressFirstId ? kMemoryNull
                                             : static_cast<int64_t>(e.code - sig::kAddressFirstId);
    break;
  case Role::String:
    c.null = e.code == 0;
    c.text = e.text;
    break;
  case Role::StringArray:
  case Role::ArgvArray:
    resolve_items(c, p.role == Role::ArgvArray, e);
    break;
  case Role::Opaque:
    c.null = e.code == 0;
    break;
  case Role::Offset:
    c.rank_stride = e.stride;
    if (e.stride != 0)
      c.offset_known = offset_at_rank(e.stride, e.integer, ctx.world_rank, c.integer);
    break;
  case Role::Value:
  case Role::Double:
  case Role::Varargs:
    break;
  }
}

void resolve_value(CallValue &out, const DecodedCall &call, size_t param, const DecodedValue &v,
                   const CallContext &ctx) {
  out.array = v.array;
  out.null = v.null;
  const ParamInfo &p = call.function->params[param];
  const bool needs_rank = p.role == Role::Rank || p.role == Role::Status;
  const RankBase first = needs_rank ? base_for(call, param, 0, ctx) : RankBase{};
  out.elements.resize(v.elements.size());
  for (size_t i = 0; i < v.elements.size(); ++i) {
    // A status's source can differ per element: each belongs to its own request.
    const RankBase base = p.role == Role::Status && i > 0 ? base_for(call, param, i, ctx) : first;
    resolve_element(out.elements[i], p, v.elements[i], base, ctx);
  }
}

} // namespace

RankRef resolve_rank(uint64_t rank_code, const RankBase &base) {
  const RankCode rc = decode_rank_code(rank_code);
  RankRef r;
  r.kind = rc.kind;
  r.offset = rc.value;
  if (r.sentinel())
    return r;
  r.caller = base.rank;
  if (rc.kind == RankCode::Cartesian)
    r.grid = base.cart;
  int64_t abs = 0;
  if (absolute_rank(rank_code, base.rank, abs, base.cart))
    r.rank = abs;
  return r;
}

TagRef resolve_tag(uint64_t tag_code) {
  TagRef t;
  t.any = !decode_tag_code(tag_code, t.tag);
  return t;
}

HandleRef resolve_handle(HandleKind kind, uint64_t handle_code) {
  const HandleCode h = decode_handle_code(handle_code);
  HandleRef r;
  r.handle_kind = kind;
  r.kind = h.kind;
  r.id = h.index;
  if (h.kind == HandleCode::Predefined)
    r.name = predefined_handle_names(kind)[h.index];
  return r;
}

HandleRef resolve_callback(uint64_t callback_code) {
  const HandleCode h = decode_handle_code(callback_code);
  HandleRef r;
  r.kind = h.kind;
  r.id = h.index;
  if (h.kind == HandleCode::Predefined)
    r.name = predefined_callback_names()[h.index];
  return r;
}

int64_t CallElement::offset_at(int64_t world_rank) const {
  int64_t v = rank_base;
  offset_at_rank(rank_stride, rank_base, world_rank, v);
  return v;
}

const CallArg *Call::arg(const char *param) const {
  for (const CallArg &a : args)
    if (a.param && a.param->name && std::strcmp(a.param->name, param) == 0)
      return &a;
  return nullptr;
}

const CallElement *status_request(const Call &call, size_t param, size_t element) {
  if (!call.coded)
    return nullptr;
  const DecodedElement *r = status_request(*call.coded, param, element);
  if (!r)
    return nullptr;
  for (const CallArg &a : call.args) // r is an `in` element of one argument
    for (const CallElement &e : a.in.elements)
      if (e.coded == r)
        return &e;
  return nullptr;
}

bool kept_sources(const CallValue &v) {
  for (const CallElement &e : v.elements)
    if (e.status.kind == sig::kStatusSourceKept || e.status.kind == sig::kStatusMatchKept)
      return true;
  return false;
}

void resolve_call_into(Call &call, const DecodedCall &coded, const CallContext &ctx) {
  call.function_id = coded.function_id;
  call.function = coded.function;
  call.thread = coded.thread_id;
  call.return_code = coded.return_code;
  call.coded = &coded;
  if (!coded.function) {
    call.args.clear();
    return;
  }
  const size_t n = std::min<size_t>(coded.params.size(), coded.function->nparams);
  call.args.resize(n);
  for (size_t i = 0; i < n; ++i) {
    const DecodedParam &d = coded.params[i];
    CallArg &a = call.args[i];
    a.param = &coded.function->params[i];
    a.has_in = d.has_in;
    a.has_out = d.has_out;
    if (d.has_in)
      resolve_value(a.in, coded, i, d.in, ctx);
    else
      a.in = CallValue{};
    if (d.has_out)
      resolve_value(a.out, coded, i, d.out, ctx);
    else
      a.out = CallValue{};
  }
}

Call resolve_call(const DecodedCall &coded, const CallContext &ctx) {
  Call call;
  resolve_call_into(call, coded, ctx);
  return call;
}

} // namespace pilgrim
