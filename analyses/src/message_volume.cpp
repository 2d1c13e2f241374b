#include "pilgrim/message_volume.h"

#include "pilgrim/saturating.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {

namespace {

// Whether the caller is known not to be the root of the call.
bool known_non_root(const DecodedCall &call, const ParamInfo &p, const CallContext &ctx) {
  if (!(p.flags & kFlagRootOnly) || p.ref3 < 0 || p.ref3 >= call.function->nparams)
    return false;
  const ParamInfo &rp = call.function->params[p.ref3];
  if (rp.role != Role::Rank)
    return false;
  const DecodedValue *v = call.params[static_cast<size_t>(p.ref3)].any();
  if (!v || v->null || v->elements.size() != 1)
    return false;
  const uint64_t code = v->elements[0].code;
  const RankCode rc = decode_rank_code(code);
  if (rc.kind == RankCode::Root)
    return false; // intercomm root group: the root
  if (rc.kind == RankCode::ProcNull)
    return true; // intercomm: the other processes
  if (rc.kind == RankCode::Relative || rc.kind == RankCode::Cartesian)
    return rc.value != 0; // offset 0 is the caller itself
  if (rc.kind == RankCode::Absolute) {
    const int64_t me = caller_rank_for(call, static_cast<size_t>(p.ref3), ctx);
    return me >= 0 && me != rc.value;
  }
  return false;
}

} // namespace

MessageVolume message_volume(const DecodedCall &call, const CallContext &ctx) {
  MessageVolume mv;
  if (!call.function)
    return mv;
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams && i < call.params.size(); ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Buffer)
      continue;
    const DecodedValue *bv = call.params[i].any();
    if (!bv || bv->null || bv->elements.size() != 1)
      continue;
    const uint64_t bcode = bv->elements[0].code;
    if (bcode == sig::kBufferNull || bcode == sig::kBufferInPlace)
      continue;
    if (known_non_root(call, p, ctx))
      continue;
    if (p.ref < 0 || p.ref >= f.nparams || f.params[p.ref].role != Role::Value) {
      mv.complete = false;
      continue;
    }
    const DecodedValue *cv = call.params[static_cast<size_t>(p.ref)].any();
    if (!cv) {
      mv.complete = false;
      continue;
    }
    if (cv->null)
      continue; // counts absent at this rank
    const DecodedValue *tv = nullptr;
    if (p.ref2 >= 0) {
      if (p.ref2 >= f.nparams || f.params[p.ref2].role != Role::Handle) {
        mv.complete = false;
        continue;
      }
      tv = call.params[static_cast<size_t>(p.ref2)].any();
      if (!tv || tv->null || tv->elements.empty()) {
        mv.complete = false;
        continue;
      }
    }
    const size_t n = cv->elements.size();
    const bool per_element_types = tv && tv->elements.size() > 1;
    if (per_element_types && tv->elements.size() < n) {
      mv.complete = false;
      continue;
    }
    for (size_t k = 0; k < n; ++k) {
      const int64_t count = cv->elements[k].integer;
      if (count < 0) {
        mv.complete = false;
        continue;
      }
      int64_t size = 1;
      if (tv)
        size = ctx.datatype_size(tv->elements[per_element_types ? k : 0].code);
      if (size == -2) {
        if (count != 0)
          mv.complete = false;
        continue;
      }
      if (size < 0) {
        if (count != 0)
          mv.complete = false;
        continue;
      }
      mv.bytes =
          sat_add(mv.bytes, sat_mul(static_cast<uint64_t>(count), static_cast<uint64_t>(size)));
    }
  }
  return mv;
}

} // namespace pilgrim
