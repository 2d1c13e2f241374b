#include "pilgrim/message_volume.h"

#include "pilgrim/saturating.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim {

namespace {

// Whether the caller is known not to be the root of the call.
bool known_non_root(const Call &call, const ParamInfo &p) {
  if (!(p.flags & kFlagRootOnly) || p.ref3 < 0 || static_cast<size_t>(p.ref3) >= call.args.size())
    return false;
  const CallArg &root = call.args[static_cast<size_t>(p.ref3)];
  if (root.role() != Role::Rank)
    return false;
  const CallValue *v = root.any();
  if (!v || v->null || v->elements.size() != 1)
    return false;
  const RankRef &r = v->elements[0].rank;
  if (r.kind == RankCode::Root)
    return false; // intercomm root group: the root
  if (r.kind == RankCode::ProcNull)
    return true; // intercomm: the other processes
  if (r.kind == RankCode::Relative || r.kind == RankCode::Cartesian)
    return r.offset != 0; // offset 0 is the caller itself
  if (r.kind == RankCode::Absolute)
    return r.caller >= 0 && r.caller != r.offset;
  return false;
}

} // namespace

MessageVolume buffer_volume(const Call &call, size_t i) {
  MessageVolume mv;
  const size_t n_args = call.args.size();
  if (!call.function || i >= n_args || call.args[i].role() != Role::Buffer)
    return mv;
  const ParamInfo &p = *call.args[i].param;
  const CallValue *bv = call.args[i].any();
  if (!bv || bv->null || bv->elements.size() != 1)
    return mv;
  const int64_t memory = bv->elements[0].memory;
  if (memory == kMemoryNull || memory == kMemoryInPlace)
    return mv;
  if (known_non_root(call, p))
    return mv;
  if (p.ref < 0 || static_cast<size_t>(p.ref) >= n_args ||
      call.args[static_cast<size_t>(p.ref)].role() != Role::Value) {
    mv.complete = false;
    return mv;
  }
  const CallValue *cv = call.args[static_cast<size_t>(p.ref)].any();
  if (!cv) {
    mv.complete = false;
    return mv;
  }
  if (cv->null)
    return mv; // counts absent at this rank
  const CallValue *tv = nullptr;
  if (p.ref2 >= 0) {
    if (static_cast<size_t>(p.ref2) >= n_args ||
        call.args[static_cast<size_t>(p.ref2)].role() != Role::Handle) {
      mv.complete = false;
      return mv;
    }
    tv = call.args[static_cast<size_t>(p.ref2)].any();
    if (!tv || tv->null || tv->elements.empty()) {
      mv.complete = false;
      return mv;
    }
  }
  const size_t n = cv->elements.size();
  const bool per_element_types = tv && tv->elements.size() > 1;
  if (per_element_types && tv->elements.size() < n) {
    mv.complete = false;
    return mv;
  }
  for (size_t k = 0; k < n; ++k) {
    const int64_t count = cv->elements[k].integer;
    if (count < 0) {
      mv.complete = false;
      continue;
    }
    int64_t size = 1;
    if (tv)
      size = tv->elements[per_element_types ? k : 0].handle.size;
    if (size < 0) { // -2: MPI_DATATYPE_NULL, size 0 for zero counts; -1 unknown
      if (count != 0)
        mv.complete = false;
      continue;
    }
    mv.bytes =
        sat_add(mv.bytes, sat_mul(static_cast<uint64_t>(count), static_cast<uint64_t>(size)));
  }
  return mv;
}

MessageVolume message_volume(const Call &call) {
  MessageVolume mv;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const MessageVolume b = buffer_volume(call, i);
    mv.bytes = sat_add(mv.bytes, b.bytes);
    mv.complete = mv.complete && b.complete;
  }
  return mv;
}

MessageVolume message_volume(const DecodedCall &call, const CallContext &ctx) {
  return message_volume(resolve_call(call, ctx));
}

} // namespace pilgrim
