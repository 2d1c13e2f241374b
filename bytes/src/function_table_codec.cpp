#include "pilgrim/function_table_codec.h"

#include <algorithm>

#include "pilgrim/byte_io.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

constexpr uint8_t kMaxCType = static_cast<uint8_t>(CType::Long);
constexpr uint8_t kMaxRole = static_cast<uint8_t>(Role::Address);
constexpr uint8_t kMaxDirection = static_cast<uint8_t>(Direction::InOut);
constexpr uint8_t kMaxHandleKind = static_cast<uint8_t>(HandleKind::Stream);
constexpr uint8_t kMaxAction = static_cast<uint8_t>(HandleAction::Free);
constexpr uint8_t kMaxLenOp = static_cast<uint8_t>(LenOp::CartDim);

std::string fn_label(const char *name) { return sanitize_for_message(name ? name : ""); }

// Checks the enum and reference fields of one parameter; `what` prefixes
// the message.
void check_param(const std::string &what, uint8_t nparams, uint8_t base, uint8_t role, uint8_t dir,
                 uint8_t kind, uint8_t action, int8_t ref, int8_t ref2, int8_t ref3) {
  auto bad = [&](const char *field, int v) {
    throw TraceError(what + ": " + field + " " + std::to_string(v) + " out of range");
  };
  if (base > kMaxCType)
    bad("C base type", base);
  if (role > kMaxRole)
    bad("role", role);
  if (dir > kMaxDirection)
    bad("direction", dir);
  if (kind > kMaxHandleKind)
    bad("handle kind", kind);
  if (action > kMaxAction)
    bad("handle action", action);
  if (ref < -1 || ref >= nparams)
    bad("ref", ref);
  if (ref2 < -1 || ref2 >= nparams)
    bad("ref2", ref2);
  if (ref3 < -1 || ref3 >= nparams)
    bad("ref3", ref3);
}

} // namespace

void validate_function(const FunctionInfo &fn) {
  const std::string fname = fn_label(fn.name);
  if (fn.nparams && !fn.params)
    throw TraceError("function " + fname + ": no parameters array");
  for (uint8_t i = 0; i < fn.nparams; ++i) {
    const ParamInfo &p = fn.params[i];
    const std::string what = "function " + fname + " parameter " + fn_label(p.name);
    check_param(what, fn.nparams, static_cast<uint8_t>(p.base), static_cast<uint8_t>(p.role),
                static_cast<uint8_t>(p.dir), static_cast<uint8_t>(p.handle_kind),
                static_cast<uint8_t>(p.action), p.ref, p.ref2, p.ref3);
    if (p.len_size && !p.len)
      throw TraceError(what + ": length program missing");
    for (uint8_t k = 0; k < (p.len ? p.len_size : 0); ++k)
      if (static_cast<uint8_t>(p.len[k].op) > kMaxLenOp)
        throw TraceError(what + ": length op " + std::to_string(static_cast<int>(p.len[k].op)) +
                         " out of range");
  }
}

std::string encode_function_table(const std::vector<const FunctionInfo *> &functions) {
  std::vector<const FunctionInfo *> sorted = functions;
  for (const FunctionInfo *f : sorted)
    if (!f)
      throw TraceError("null entry in the function table");
  std::sort(sorted.begin(), sorted.end(),
            [](const FunctionInfo *a, const FunctionInfo *b) { return a->id < b->id; });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i]->id == sorted[i - 1]->id)
      throw TraceError("duplicate function id " + std::to_string(sorted[i]->id) + " (" +
                       fn_label(sorted[i - 1]->name) + ", " + fn_label(sorted[i]->name) + ")");

  std::string out;
  ByteWriter w(out);
  w.varint(sorted.size());
  for (const FunctionInfo *f : sorted) {
    validate_function(*f);
    w.varint(f->id);
    w.string(f->name ? f->name : "");
    w.u8(f->nparams);
    for (uint8_t i = 0; i < f->nparams; ++i) {
      const ParamInfo &p = f->params[i];
      w.string(p.name ? p.name : "");
      w.string(p.c_type ? p.c_type : "");
      w.u8(static_cast<uint8_t>(p.base));
      w.u8(static_cast<uint8_t>(p.role));
      w.u8(static_cast<uint8_t>(p.dir));
      w.u8(static_cast<uint8_t>(p.handle_kind));
      w.u8(static_cast<uint8_t>(p.action));
      w.u16le(p.flags);
      w.u8(static_cast<uint8_t>(p.ref));
      w.u8(static_cast<uint8_t>(p.ref2));
      w.u8(static_cast<uint8_t>(p.ref3));
      const uint8_t n = p.len ? p.len_size : 0;
      w.u8(n);
      for (uint8_t k = 0; k < n; ++k) {
        w.u8(static_cast<uint8_t>(p.len[k].op));
        w.svarint(p.len[k].arg);
      }
      // No length expression is NULL, whether the row says nullptr or "".
      w.nullable_string(p.len_text && *p.len_text ? p.len_text : nullptr);
    }
  }
  return out;
}

std::vector<OwnedFunction> decode_function_table(std::string_view payload) {
  ByteReader r(payload);
  // Smallest row: id(1) name(1) nparams(1).
  const uint64_t count = r.count(3, "function count");
  std::vector<OwnedFunction> functions;
  functions.reserve(static_cast<size_t>(count));
  int64_t previous_id = -1;
  for (uint64_t i = 0; i < count; ++i) {
    const size_t row_start = r.offset();
    const uint16_t id = static_cast<uint16_t>(r.varint_max(0xffff, "function id"));
    if (static_cast<int64_t>(id) <= previous_id)
      r.fail_at("function id " + std::to_string(id) + " not greater than the previous id " +
                    std::to_string(previous_id),
                row_start);
    previous_id = id;
    std::string name(r.string());
    const std::string fname = sanitize_for_message(name);
    const uint8_t nparams = r.u8();
    std::vector<OwnedParam> params;
    params.reserve(std::min<size_t>(nparams, r.remaining()));
    for (uint8_t k = 0; k < nparams; ++k) {
      OwnedParam p;
      p.name = std::string(r.string());
      p.c_type = std::string(r.string());
      const size_t fields_at = r.offset();
      const uint8_t base = r.u8(), role = r.u8(), dir = r.u8(), kind = r.u8(), action = r.u8();
      p.flags = r.u16le();
      const auto ref = static_cast<int8_t>(r.u8());
      const auto ref2 = static_cast<int8_t>(r.u8());
      const auto ref3 = static_cast<int8_t>(r.u8());
      try {
        check_param("function " + fname + " parameter " + sanitize_for_message(p.name), nparams,
                    base, role, dir, kind, action, ref, ref2, ref3);
      } catch (const TraceError &e) {
        r.fail_at(e.what(), fields_at);
      }
      p.base = static_cast<CType>(base);
      p.role = static_cast<Role>(role);
      p.dir = static_cast<Direction>(dir);
      p.handle_kind = static_cast<HandleKind>(kind);
      p.action = static_cast<HandleAction>(action);
      p.ref = ref;
      p.ref2 = ref2;
      p.ref3 = ref3;
      const uint8_t nlen = r.u8();
      p.len.reserve(std::min<size_t>(nlen, r.remaining()));
      for (uint8_t j = 0; j < nlen; ++j) {
        const size_t op_at = r.offset();
        const uint8_t op = r.u8();
        if (op > kMaxLenOp)
          r.fail_at("function " + fname + " parameter " + sanitize_for_message(p.name) +
                        ": length op " + std::to_string(op) + " out of range",
                    op_at);
        const int32_t arg = r.svarint32("length argument");
        p.len.push_back(LenInstr{static_cast<LenOp>(op), arg});
      }
      // Older Pilgrim builds wrote "" for no length expression;
      // both read as none (docs/FORMAT.md §6).
      std::string_view text;
      p.has_len_text = r.nullable_string(text) && !text.empty();
      p.len_text = std::string(text);
      params.push_back(std::move(p));
    }
    functions.emplace_back(id, std::move(name), std::move(params));
  }
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return functions;
}

} // namespace pilgrim
