#include "pilgrim/message_volume.h"

#include "pilgrim/file_name_decoder.h"
#include "pilgrim/posix_records.h"
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

bool on_side(Direction dir, BufferSide side) {
  switch (side) {
  case BufferSide::Sent:
    return dir != Direction::Out;
  case BufferSide::Received:
    return dir != Direction::In;
  case BufferSide::All:
    break;
  }
  return true;
}

} // namespace

BufferBlocks buffer_blocks(const Call &call, size_t buffer) {
  BufferBlocks out;
  const size_t n_args = call.args.size();
  if (buffer >= n_args || !call.args[buffer].param) {
    out.complete = false;
    return out;
  }
  const ParamInfo &p = *call.args[buffer].param;
  if (p.ref < 0 || static_cast<size_t>(p.ref) >= n_args ||
      call.args[static_cast<size_t>(p.ref)].role() != Role::Value) {
    out.complete = false;
    return out;
  }
  const CallValue *cv = call.args[static_cast<size_t>(p.ref)].any();
  if (!cv) {
    out.complete = false;
    return out;
  }
  if (cv->null)
    return out; // counts absent at this rank
  const CallValue *tv = nullptr;
  if (p.ref2 >= 0) {
    if (static_cast<size_t>(p.ref2) >= n_args ||
        call.args[static_cast<size_t>(p.ref2)].role() != Role::Handle) {
      out.complete = false;
      return out;
    }
    tv = call.args[static_cast<size_t>(p.ref2)].any();
    if (!tv || tv->null || tv->elements.empty()) {
      out.complete = false;
      return out;
    }
  }
  const size_t n = cv->elements.size();
  const bool per_element_types = tv && tv->elements.size() > 1;
  if (per_element_types && tv->elements.size() < n) {
    out.complete = false;
    return out;
  }
  out.bytes.assign(n, 0);
  out.known.assign(n, true);
  for (size_t k = 0; k < n; ++k) {
    const int64_t count = cv->elements[k].integer;
    int64_t size = 1;
    if (tv)
      size = tv->elements[per_element_types ? k : 0].handle.size;
    if (count < 0 || (size < 0 && count != 0)) { // -1 unknown; -2 the null datatype
      out.known[k] = false;
      out.complete = false;
      continue;
    }
    if (size > 0)
      out.bytes[k] = sat_mul(static_cast<uint64_t>(count), static_cast<uint64_t>(size));
  }
  return out;
}

MessageVolume buffer_volume(const Call &call, size_t i) {
  MessageVolume mv;
  if (!call.function || i >= call.args.size() || call.args[i].role() != Role::Buffer)
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
  const BufferBlocks blocks = buffer_blocks(call, i);
  mv.complete = blocks.complete;
  for (uint64_t b : blocks.bytes)
    mv.bytes = sat_add(mv.bytes, b);
  return mv;
}

// A POSIX read or write (docs/FORMAT.md §8.6): the bytes it moved, its
// result (fread, fwrite: items x size); none when it failed. Reads receive,
// writes send.
static MessageVolume posix_volume(const Call &call, BufferSide side) {
  MessageVolume mv;
  const uint16_t id = call.function_id;
  const bool reads =
      id == kPosixRead || id == kPosixPread || id == kPosixPread64 || id == kPosixFread;
  const bool writes =
      id == kPosixWrite || id == kPosixPwrite || id == kPosixPwrite64 || id == kPosixFwrite;
  if ((!reads && !writes) || call.return_code <= 0 || (side == BufferSide::Sent && !writes) ||
      (side == BufferSide::Received && !reads))
    return mv;
  uint64_t size = 1;
  if (id == kPosixFread || id == kPosixFwrite) {
    const CallArg *a = call.arg("size");
    const CallValue *v = a ? a->any() : nullptr;
    if (!v || v->elements.size() != 1 || v->elements[0].integer < 0) {
      mv.complete = false;
      return mv;
    }
    size = static_cast<uint64_t>(v->elements[0].integer);
  }
  mv.bytes = sat_mul(static_cast<uint64_t>(call.return_code), size);
  return mv;
}

MessageVolume message_volume(const Call &call, BufferSide side) {
  if (is_posix_record(call.function_id))
    return posix_volume(call, side);
  MessageVolume mv;
  for (size_t i = 0; i < call.args.size(); ++i) {
    if (call.args[i].param && !on_side(call.args[i].param->dir, side))
      continue;
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
