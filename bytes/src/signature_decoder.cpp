#include "pilgrim/signature_decoder.h"

#include "pilgrim/byte_io.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

// Where the caller wants the bytes of some elements listed.
struct Spans {
  std::vector<PendingAddress> *pending = nullptr;
  std::vector<OffsetSpan> *offsets = nullptr;
};

// Smallest encoded size of one element of a role (for count checks).
size_t min_element_bytes(Role role) {
  return role == Role::Double ? 8 : role == Role::Address ? 2 : 1;
}

size_t min_element_bytes(const ParamInfo &p) {
  return p.role == Role::Offset && (p.flags & kFlagRankStride) ? 2 : min_element_bytes(p.role);
}

DecodedElement decode_string(ByteReader &r) {
  DecodedElement e;
  std::string_view s;
  if (r.nullable_string(s)) {
    e.code = 1;
    e.text = std::string(s);
  }
  return e;
}

DecodedElement decode_string_array(ByteReader &r) {
  DecodedElement e;
  const uint64_t prefix = r.array_prefix(1, "string array length");
  if (prefix == 0)
    return e;
  e.code = 1;
  e.items.reserve(static_cast<size_t>(prefix - 1));
  for (uint64_t i = 0; i + 1 < prefix; ++i)
    e.items.push_back(decode_string(r));
  return e;
}

DecodedElement decode_element(ByteReader &r, const ParamInfo &p, const Spans &spans) {
  std::vector<PendingAddress> *pending = spans.pending;
  DecodedElement e;
  // int [][3] rows (first, last, stride) are plain values whatever the role:
  // a stride is not a rank (docs/FORMAT.md §8.1).
  if (p.flags & kFlagMatrix3) {
    e.integer = r.svarint();
    return e;
  }
  switch (p.role) {
  case Role::Value:
    e.integer = r.svarint();
    break;
  case Role::Offset: {
    const size_t at = r.offset();
    if (p.flags & kFlagRankStride) // version 7: svarint(stride) svarint(base)
      e.stride = r.svarint();
    e.integer = r.svarint();
    if (spans.offsets && (p.flags & kFlagRankStride))
      spans.offsets->push_back({at, r.offset(), e.stride, e.integer});
    break;
  }
  case Role::Double:
    e.real = r.f64le();
    break;
  case Role::Rank:
  case Role::Tag:
  case Role::Handle:
  case Role::Buffer:
  case Role::Pointer:
  case Role::Callback:
    e.code = r.varint();
    break;
  case Role::Address: {
    const size_t at = r.offset();
    e.code = r.varint();
    e.integer = r.svarint();
    if (e.code == sig::kAddressPending) {
      if (!pending)
        r.fail_at("unresolved address (code 1)", at);
      pending->push_back({at, r.offset(), e.integer});
    }
    break;
  }
  case Role::String:
    return decode_string(r);
  case Role::Status: {
    const size_t at = r.offset();
    e.status.kind = r.varint();
    switch (e.status.kind) {
    case sig::kStatusIgnored:
    case sig::kStatusEmpty:
      break;
    case sig::kStatusFull:
    case sig::kStatusMatchKept:
      e.status.source_code = r.varint();
      e.status.tag_code = r.varint();
      e.status.count_bytes = r.svarint();
      break;
    case sig::kStatusCountOnly:
      e.status.count_bytes = r.svarint();
      break;
    case sig::kStatusSourceKept:
      e.status.source_code = r.varint();
      break;
    default:
      r.fail_at("unknown status kind " + std::to_string(e.status.kind), at);
    }
    break;
  }
  case Role::Opaque: {
    const size_t at = r.offset();
    e.code = r.u8();
    if (e.code > 1)
      r.fail_at("opaque byte " + std::to_string(e.code) + " is neither 0 nor 1", at);
    break;
  }
  case Role::StringArray:
    return decode_string_array(r);
  case Role::ArgvArray: {
    const uint64_t prefix = r.array_prefix(1, "argv array length");
    if (prefix == 0)
      return e;
    e.code = 1;
    e.items.reserve(static_cast<size_t>(prefix - 1));
    for (uint64_t i = 0; i + 1 < prefix; ++i)
      e.items.push_back(decode_string_array(r));
    break;
  }
  case Role::Varargs:
    break;
  default:
    r.fail("unknown role " + std::to_string(static_cast<int>(p.role)));
  }
  return e;
}

DecodedValue decode_value(ByteReader &r, const ParamInfo &p, const Spans &spans) {
  DecodedValue v;
  if (p.role == Role::Varargs)
    return v;
  if (!sig::has_array_prefix(p)) {
    v.elements.push_back(decode_element(r, p, spans));
    return v;
  }
  v.array = true;
  const uint64_t per = sig::elements_per_entry(p);
  const uint64_t prefix = r.array_prefix(min_element_bytes(p) * per, "array length");
  if (prefix == 0) {
    v.null = true;
    return v;
  }
  const uint64_t n = (prefix - 1) * per;
  v.elements.reserve(static_cast<size_t>(n));
  for (uint64_t i = 0; i < n; ++i)
    v.elements.push_back(decode_element(r, p, spans));
  return v;
}

} // namespace

uint16_t signature_function_id(std::string_view sig) {
  ByteReader r(sig);
  return static_cast<uint16_t>(r.varint_max(0xffff, "function id"));
}

namespace {

DecodedCall decode_with_spans(const FunctionLookup &lookup, std::string_view sig,
                              const Spans &spans) {
  ByteReader r(sig);
  DecodedCall call;
  call.function_id = static_cast<uint16_t>(r.varint_max(0xffff, "function id"));
  call.function = lookup ? lookup(call.function_id) : nullptr;
  if (!call.function)
    throw TraceError("unknown function id " + std::to_string(call.function_id));
  const FunctionInfo &f = *call.function;
  if (f.nparams && !f.params)
    throw TraceError("function id " + std::to_string(call.function_id) + " has no parameter table");
  call.thread_id = r.varint();
  call.params.resize(f.nparams);
  const std::string fname = sanitize_for_message(f.name ? f.name : "");
  auto each = [&](bool (*include)(const ParamInfo &), bool in) {
    for (uint8_t i = 0; i < f.nparams; ++i) {
      const ParamInfo &p = f.params[i];
      if (!include(p))
        continue;
      try {
        DecodedParam &d = call.params[i];
        (in ? d.has_in : d.has_out) = true;
        (in ? d.in : d.out) = decode_value(r, p, spans);
      } catch (const TraceError &e) {
        rethrow_with_context(fname + " parameter " + sanitize_for_message(p.name ? p.name : "") +
                                 (in ? " (in)" : " (out)"),
                             e);
      }
    }
  };
  each(sig::in_part_includes, true);
  each(sig::out_part_includes, false);
  each(sig::deferred_part_includes, false);
  try {
    call.return_code = r.svarint();
  } catch (const TraceError &e) {
    rethrow_with_context(fname + " return code", e);
  }
  if (!r.at_end())
    throw TraceError(fname + ": " + std::to_string(r.remaining()) +
                     " trailing bytes after the return code");
  return call;
}

} // namespace

DecodedCall decode_signature(const FunctionLookup &lookup, std::string_view sig,
                             std::vector<PendingAddress> *pending) {
  Spans spans;
  spans.pending = pending;
  return decode_with_spans(lookup, sig, spans);
}

DecodedCall decode_signature_offsets(const FunctionLookup &lookup, std::string_view sig,
                                     std::vector<OffsetSpan> &offsets) {
  Spans spans;
  spans.offsets = &offsets;
  return decode_with_spans(lookup, sig, spans);
}

DecodedCall decode_signature(const Trace &trace, std::string_view sig) {
  return decode_signature([&trace](uint16_t id) { return trace.function(id); }, sig);
}

} // namespace pilgrim
