#include "pilgrim/call_formatter.h"

#include <charconv>
#include <cstdio>

#include "pilgrim/cartesian_offset.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/request_id.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {

namespace {

// Names come from the trace file: keep them on one printable line.
std::string safe_name(const char *name) {
  return name ? sanitize_for_message(name, static_cast<size_t>(-1)) : "?";
}

std::string signed_offset(int64_t v) { return (v < 0 ? "" : "+") + std::to_string(v); }

// A Cartesian code's displacement per dimension, "-1,0,+1", or its offset
// when the grid is unknown.
std::string format_displacement(int64_t y, const CartTopology *cart) {
  if (cart && cart->dims.size() <= static_cast<size_t>(kCartMaxDims)) {
    int64_t disp[kCartMaxDims];
    if (cart_displacements(static_cast<int>(cart->dims.size()), cart->dims.data(),
                           cart->periods.data(), y, disp)) {
      std::string out;
      for (size_t i = 0; i < cart->dims.size(); ++i)
        out += (i ? "," : "") + (disp[i] ? signed_offset(disp[i]) : std::string("0"));
      return out;
    }
  }
  return "#" + std::to_string(y);
}

std::string format_rank(uint64_t code, const RankBase &base) {
  const RankCode rc = decode_rank_code(code);
  if (const char *name = rank_sentinel_name(rc.kind))
    return name;
  if (rc.kind == RankCode::Absolute)
    return std::to_string(rc.value);
  int64_t abs = 0;
  const bool known = absolute_rank(code, base.rank, abs, base.cart);
  if (rc.kind == RankCode::Cartesian) {
    const std::string grid = "grid " + format_displacement(rc.value, base.cart);
    return known ? std::to_string(abs) + " (" + grid + ")" : "self+(" + grid + ")";
  }
  if (known)
    return std::to_string(abs) + " (" + signed_offset(rc.value) + ")";
  return "self" + signed_offset(rc.value);
}

std::string format_tag(uint64_t code) {
  int64_t tag = 0;
  if (!decode_tag_code(code, tag))
    return "MPI_ANY_TAG";
  return std::to_string(tag);
}

std::string format_callback(uint64_t code) {
  const HandleCode h = decode_handle_code(code);
  switch (h.kind) {
  case HandleCode::Null:
    return "NULL";
  case HandleCode::Predefined: {
    const char *name = predefined_callback_names()[h.index];
    return name ? name : "predefined-fn#" + std::to_string(h.index);
  }
  case HandleCode::User:
    break;
  }
  return "fn#" + std::to_string(h.index);
}

std::string format_buffer(uint64_t code) {
  switch (code) {
  case sig::kBufferNull:
    return "NULL";
  case sig::kBufferInPlace:
    return "MPI_IN_PLACE";
  case sig::kBufferBottom:
    return "MPI_BOTTOM";
  default:
    return "buf#" + std::to_string(code - sig::kBufferFirstId);
  }
}

std::string format_pointer(uint64_t code) {
  if (code == sig::kPointerNull)
    return "NULL";
  return "ptr#" + std::to_string(code - 1);
}

// An Address element: the value itself, or `ptr#u+x`, the address of memory
// id u (the id space of buf#/ptr#) plus x bytes.
std::string format_address(uint64_t code, int64_t x) {
  if (code < sig::kAddressFirstId)
    return std::to_string(x);
  std::string s = "ptr#" + std::to_string(code - sig::kAddressFirstId);
  if (x > 0)
    s += "+" + std::to_string(x);
  else if (x < 0)
    s += std::to_string(x);
  return s;
}

void append_string_array(std::string &out, const DecodedElement &e) {
  if (e.code == 0) {
    out += "NULL";
    return;
  }
  out += '[';
  for (size_t i = 0; i < e.items.size(); ++i) {
    if (i)
      out += ", ";
    out += e.items[i].code ? quote_string(e.items[i].text) : "NULL";
  }
  out += ']';
}

void append_status(std::string &out, const DecodedStatus &s, const RankBase &caller_rank) {
  switch (s.kind) {
  case sig::kStatusIgnored:
    out += "MPI_STATUS_IGNORE";
    return;
  case sig::kStatusEmpty:
    out += "{}";
    return;
  case sig::kStatusFull:
    out += "{source=" + format_rank(s.source_code, caller_rank) +
           ", tag=" + format_tag(s.tag_code) + ", count=" + std::to_string(s.count_bytes) + "}";
    return;
  case sig::kStatusSourceKept:
    out += "MPI_STATUS_IGNORE{source=" + format_rank(s.source_code, caller_rank) + "}";
    return;
  default:
    out += "{count=" + std::to_string(s.count_bytes) + "}";
    return;
  }
}

void append_element(std::string &out, const ParamInfo &p, const DecodedElement &e,
                    const RankBase &caller_rank) {
  switch (p.role) {
  case Role::Value:
  case Role::Offset:
    out += std::to_string(e.integer);
    break;
  case Role::Double:
    out += format_double(e.real);
    break;
  case Role::Rank:
    out += format_rank(e.code, caller_rank);
    break;
  case Role::Tag:
    out += format_tag(e.code);
    break;
  case Role::Handle:
    out += format_handle(p.handle_kind, e.code);
    break;
  case Role::Buffer:
    out += format_buffer(e.code);
    break;
  case Role::Pointer:
    out += format_pointer(e.code);
    break;
  case Role::Address:
    out += format_address(e.code, e.integer);
    break;
  case Role::Callback:
    out += format_callback(e.code);
    break;
  case Role::String:
    out += e.code ? quote_string(e.text) : "NULL";
    break;
  case Role::Status:
    append_status(out, e.status, caller_rank);
    break;
  case Role::Opaque:
    out += e.code ? "non-NULL" : "NULL";
    break;
  case Role::StringArray:
    append_string_array(out, e);
    break;
  case Role::ArgvArray:
    if (e.code == 0) {
      out += "NULL";
      break;
    }
    out += '[';
    for (size_t i = 0; i < e.items.size(); ++i) {
      if (i)
        out += ", ";
      append_string_array(out, e.items[i]);
    }
    out += ']';
    break;
  case Role::Varargs:
    out += "...";
    break;
  }
}

} // namespace

std::string format_handle(HandleKind kind, uint64_t code) {
  const HandleCode h = decode_handle_code(code);
  switch (h.kind) {
  case HandleCode::Null:
    return null_handle_name(kind);
  case HandleCode::Predefined: {
    const char *name = predefined_handle_names(kind)[h.index];
    if (name)
      return name;
    return std::string("predefined-") + handle_id_prefix(kind) + "#" + std::to_string(h.index);
  }
  case HandleCode::User:
    break;
  }
  const std::string id =
      kind == HandleKind::Request ? request_id_text(h.index) : std::to_string(h.index);
  return std::string(handle_id_prefix(kind)) + "#" + id;
}

std::string format_double(double v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  if (res.ec != std::errc()) {
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
  }
  return std::string(buf, res.ptr);
}

std::string quote_string(const std::string &s) {
  std::string out = "\"";
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20 || c >= 0x7f) {
        // Three octal digits: unlike \xNN, the escape ends by itself, so the
        // text is also a valid C++ literal (proxygen) whatever follows.
        out += '\\';
        out += static_cast<char>('0' + (c >> 6));
        out += static_cast<char>('0' + ((c >> 3) & 7));
        out += static_cast<char>('0' + (c & 7));
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  return out + "\"";
}

std::string format_return_code(int64_t rc) { return rc == 0 ? "MPI_SUCCESS" : std::to_string(rc); }

void append_value(std::string &out, const DecodedCall &call, size_t param, const DecodedValue &v,
                  const CallContext &ctx) {
  if (!call.function || param >= call.function->nparams)
    return;
  const ParamInfo &p = call.function->params[param];
  if (p.role == Role::Varargs) {
    out += "...";
    return;
  }
  // What rank codes are relative to; a status's source can differ per
  // element (each belongs to its own request).
  const bool needs_rank = p.role == Role::Rank || p.role == Role::Status;
  const RankBase caller_rank = needs_rank ? base_for(call, param, 0, ctx) : RankBase{};
  auto base_of = [&](size_t i) {
    return p.role == Role::Status && i > 0 ? base_for(call, param, i, ctx) : caller_rank;
  };
  if (v.null) {
    out += p.role == Role::Status ? "MPI_STATUSES_IGNORE" : "NULL";
    return;
  }
  // A pointer to one scalar prints as the scalar.
  const bool brackets = v.array && ((p.flags & kFlagArray) || v.elements.size() != 1);
  if (!brackets) {
    if (v.elements.empty())
      return;
    append_element(out, p, v.elements[0], caller_rank);
    return;
  }
  if (p.role == Role::Status && kept_sources(v)) {
    // MPI_STATUSES_IGNORE, with the senders of the wildcard receives kept.
    out += "MPI_STATUSES_IGNORE[";
    for (size_t i = 0; i < v.elements.size(); ++i) {
      const DecodedStatus &s = v.elements[i].status;
      out += i ? ", " : "";
      out += s.kind == sig::kStatusSourceKept
                 ? "{source=" + format_rank(s.source_code, base_of(i)) + "}"
                 : std::string("{}");
    }
    out += ']';
    return;
  }
  const bool rows = (p.flags & kFlagMatrix3) != 0;
  out += '[';
  for (size_t i = 0; i < v.elements.size(); ++i) {
    if (rows) {
      if (i % 3 == 0)
        out += i ? ", [" : "[";
      else
        out += ", ";
      out += std::to_string(v.elements[i].integer); // plain values (FORMAT.md §8.1)
      if (i % 3 == 2)
        out += ']';
    } else {
      if (i)
        out += ", ";
      append_element(out, p, v.elements[i], base_of(i));
    }
  }
  out += ']';
}

std::string format_call(const DecodedCall &call, const CallContext &ctx) {
  if (!call.function)
    return "function#" + std::to_string(call.function_id) + "(?)";
  std::string out = safe_name(call.function->name);
  out += '(';
  for (size_t i = 0; i < call.params.size(); ++i) {
    const ParamInfo &p = call.function->params[i];
    const DecodedParam &d = call.params[i];
    if (i)
      out += ", ";
    if (p.role != Role::Varargs) {
      out += safe_name(p.name);
      out += '=';
    }
    if (d.has_in)
      append_value(out, call, i, d.in, ctx);
    if (d.has_in && d.has_out)
      out += "->";
    if (d.has_out)
      append_value(out, call, i, d.out, ctx);
    if (!d.has_in && !d.has_out)
      out += p.role == Role::Varargs ? "..." : "?";
  }
  out += ") = ";
  out += format_return_code(call.return_code);
  return out;
}

} // namespace pilgrim
