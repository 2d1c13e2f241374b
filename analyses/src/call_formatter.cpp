#include "pilgrim/call_formatter.h"

#include <charconv>
#include <cstdio>

#include "pilgrim/cartesian_offset.h"
#include "pilgrim/file_name_decoder.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/request_id.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"

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

std::string format_rank(const RankRef &r) {
  if (const char *name = r.sentinel_name())
    return name;
  if (r.kind == RankCode::Absolute)
    return std::to_string(r.offset);
  if (r.kind == RankCode::Cartesian) {
    const std::string grid = "grid " + format_displacement(r.offset, r.grid);
    return r.known() ? std::to_string(r.rank) + " (" + grid + ")" : "self+(" + grid + ")";
  }
  if (r.known())
    return std::to_string(r.rank) + " (" + signed_offset(r.offset) + ")";
  return "self" + signed_offset(r.offset);
}

std::string format_tag(const TagRef &t) { return t.any ? "MPI_ANY_TAG" : std::to_string(t.tag); }

std::string format_callback(const HandleRef &h) {
  switch (h.kind) {
  case HandleCode::Null:
    return "NULL";
  case HandleCode::Predefined:
    return h.name ? h.name : "predefined-fn#" + std::to_string(h.id);
  case HandleCode::User:
    break;
  }
  return "fn#" + std::to_string(h.id);
}

std::string format_buffer(int64_t memory) {
  switch (memory) {
  case kMemoryNull:
    return "NULL";
  case kMemoryInPlace:
    return "MPI_IN_PLACE";
  case kMemoryBottom:
    return "MPI_BOTTOM";
  default:
    return "buf#" + std::to_string(memory);
  }
}

std::string format_pointer(const CallElement &e) {
  return e.null ? "NULL" : "ptr#" + std::to_string(e.memory);
}

// An Address element: the value itself, or `ptr#u+x`, the address of memory
// id u (the id space of buf#/ptr#) plus x bytes.
std::string format_address(const CallElement &e) {
  if (e.memory == kMemoryNull)
    return std::to_string(e.integer);
  std::string s = "ptr#" + std::to_string(e.memory);
  if (e.integer > 0)
    s += "+" + std::to_string(e.integer);
  else if (e.integer < 0)
    s += std::to_string(e.integer);
  return s;
}

void append_string_array(std::string &out, const CallElement &e) {
  if (e.null) {
    out += "NULL";
    return;
  }
  out += '[';
  for (size_t i = 0; i < e.items.size(); ++i) {
    if (i)
      out += ", ";
    out += e.items[i].null ? "NULL" : quote_string(e.items[i].text);
  }
  out += ']';
}

void append_status(std::string &out, const StatusRef &s) {
  switch (s.kind) {
  case sig::kStatusIgnored:
    out += "MPI_STATUS_IGNORE";
    return;
  case sig::kStatusEmpty:
    out += "{}";
    return;
  case sig::kStatusFull:
    out += "{source=" + format_rank(s.source) + ", tag=" + format_tag(s.tag) +
           ", count=" + std::to_string(s.count_bytes) + "}";
    return;
  case sig::kStatusSourceKept:
    out += "MPI_STATUS_IGNORE{source=" + format_rank(s.source) + "}";
    return;
  case sig::kStatusMatchKept:
    out += "MPI_STATUS_IGNORE{source=" + format_rank(s.source) + ", tag=" + format_tag(s.tag) +
           ", count=" + std::to_string(s.count_bytes) + "}";
    return;
  default:
    out += "{count=" + std::to_string(s.count_bytes) + "}";
    return;
  }
}

void append_element(std::string &out, const ParamInfo &p, const CallElement &e) {
  switch (p.role) {
  case Role::Value:
    out += std::to_string(e.integer);
    break;
  case Role::Offset:
    // The rank's own value; where the rank is unknown (a CST entry shared by
    // ranks), the rule: base+stride*rank (docs/DUMP.md).
    if (e.offset_known)
      out += std::to_string(e.integer);
    else
      out += (e.rank_base != 0 ? std::to_string(e.rank_base) + (e.rank_stride > 0 ? "+" : "")
                               : std::string()) +
             std::to_string(e.rank_stride) + "*rank";
    break;
  case Role::Double:
    out += format_double(e.real);
    break;
  case Role::Rank:
    out += format_rank(e.rank);
    break;
  case Role::Tag:
    out += format_tag(e.tag);
    break;
  case Role::Handle:
    out += format_handle(e.handle);
    break;
  case Role::Buffer:
    out += format_buffer(e.memory);
    break;
  case Role::Pointer:
    out += format_pointer(e);
    break;
  case Role::Address:
    out += format_address(e);
    break;
  case Role::Callback:
    out += format_callback(e.handle);
    break;
  case Role::String:
    out += e.null ? "NULL" : quote_string(e.text);
    break;
  case Role::Status:
    append_status(out, e.status);
    break;
  case Role::Opaque:
    out += e.null ? "NULL" : "non-NULL";
    break;
  case Role::StringArray:
    append_string_array(out, e);
    break;
  case Role::ArgvArray:
    if (e.null) {
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

std::string format_handle(const HandleRef &h) {
  switch (h.kind) {
  case HandleCode::Null:
    return null_handle_name(h.handle_kind);
  case HandleCode::Predefined:
    if (h.name)
      return h.name;
    return std::string("predefined-") + handle_id_prefix(h.handle_kind) + "#" +
           std::to_string(h.id);
  case HandleCode::User:
    break;
  }
  const std::string id =
      h.handle_kind == HandleKind::Request ? request_id_text(h.id) : std::to_string(h.id);
  return std::string(handle_id_prefix(h.handle_kind)) + "#" + id;
}

std::string format_handle(HandleKind kind, uint64_t code) {
  return format_handle(resolve_handle(kind, code));
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

void append_value(std::string &out, const CallArg &arg, const CallValue &v) {
  if (!arg.param)
    return;
  const ParamInfo &p = *arg.param;
  if (p.role == Role::Varargs) {
    out += "...";
    return;
  }
  if (v.null) {
    out += p.role == Role::Status ? "MPI_STATUSES_IGNORE" : "NULL";
    return;
  }
  // A pointer to one scalar prints as the scalar.
  const bool brackets = v.array && ((p.flags & kFlagArray) || v.elements.size() != 1);
  if (!brackets) {
    if (v.elements.empty())
      return;
    append_element(out, p, v.elements[0]);
    return;
  }
  if (p.role == Role::Status && kept_sources(v)) {
    // MPI_STATUSES_IGNORE, with the senders of the wildcard receives kept.
    out += "MPI_STATUSES_IGNORE[";
    for (size_t i = 0; i < v.elements.size(); ++i) {
      const StatusRef &s = v.elements[i].status;
      out += i ? ", " : "";
      out += s.kind == sig::kStatusSourceKept ? "{source=" + format_rank(s.source) + "}"
             : s.kind == sig::kStatusMatchKept
                 ? "{source=" + format_rank(s.source) + ", tag=" + format_tag(s.tag) +
                       ", count=" + std::to_string(s.count_bytes) + "}"
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
      append_element(out, p, v.elements[i]);
    }
  }
  out += ']';
}

std::string format_arg(const CallArg &arg) {
  std::string out;
  if (arg.has_in)
    append_value(out, arg, arg.in);
  if (arg.has_in && arg.has_out)
    out += "->";
  if (arg.has_out)
    append_value(out, arg, arg.out);
  return out;
}

std::string format_call(const Call &call) {
  if (!call.function)
    return "function#" + std::to_string(call.function_id) + "(?)";
  std::string out = safe_name(call.function->name);
  out += '(';
  for (size_t i = 0; i < call.args.size(); ++i) {
    const CallArg &a = call.args[i];
    if (i)
      out += ", ";
    if (a.role() != Role::Varargs) {
      out += safe_name(a.param->name);
      out += '=';
    }
    out += format_arg(a);
    if (!a.has_in && !a.has_out)
      out += a.role() == Role::Varargs ? "..." : "?";
  }
  out += ") = ";
  // A POSIX function's result is its own (a byte count, an offset, -1).
  out += is_posix_record(call.function_id) ? std::to_string(call.return_code)
                                           : format_return_code(call.return_code);
  return out;
}

std::string format_call(const DecodedCall &call, const CallContext &ctx) {
  return format_call(resolve_call(call, ctx));
}

} // namespace pilgrim
