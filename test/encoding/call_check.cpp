#include "call_check.h"

#include "pilgrim/cartesian_offset.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_encoding.h"

#include <mpi.h>

#include <map>
#include <sstream>

namespace pilgrim::enctest {
namespace {

// Equal values have equal ids and different values different ids, within
// one call and one space (a handle kind, the addresses, the callbacks).
class Symbols {
public:
  // Empty when consistent, else why not.
  std::string bind(int space, uint64_t value, uint64_t id) {
    auto [by_value, new_value] = by_value_.emplace(std::make_pair(space, value), id);
    if (!new_value && by_value->second != id)
      return "the same value got ids " + std::to_string(by_value->second) + " and " +
             std::to_string(id);
    auto [by_id, new_id] = by_id_.emplace(std::make_pair(space, id), value);
    if (!new_id && by_id->second != value)
      return "two different values got the same id " + std::to_string(id);
    return "";
  }

private:
  std::map<std::pair<int, uint64_t>, uint64_t> by_value_, by_id_;
};

constexpr int kAddressSpace = 100, kCallbackSpace = 101;

std::string rank_text(int64_t r) {
  if (r == MPI_ANY_SOURCE)
    return "MPI_ANY_SOURCE";
  if (r == MPI_PROC_NULL)
    return "MPI_PROC_NULL";
  if (r == MPI_ROOT)
    return "MPI_ROOT";
  if (r == MPI_UNDEFINED)
    return "MPI_UNDEFINED";
  return std::to_string(r);
}

class Checker {
public:
  Checker(const DecodedCall &d, const CallModel &m, size_t &compared)
      : d_(d), m_(m), compared_(compared) {}

  std::vector<std::string> run() {
    const FunctionInfo &f = *d_.function;
    if (d_.function_id != m_.function_id)
      problem("", "function id " + std::to_string(d_.function_id) + ", expected " +
                      std::to_string(m_.function_id));
    if (d_.thread_id != 0)
      problem("", "thread id " + std::to_string(d_.thread_id) + ", expected 0");
    if (d_.return_code != m_.return_code)
      problem("", "return code " + std::to_string(d_.return_code) + ", expected " +
                      std::to_string(m_.return_code));
    if (f.nparams != m_.params.size() || d_.params.size() != m_.params.size()) {
      problem("", "parameter count differs from the function table");
      return problems_;
    }
    for (int i = 0; i < f.nparams; ++i) {
      const ParamInfo &p = f.params[i];
      if (p.role == Role::Varargs)
        continue;
      const DecodedParam &dp = d_.params[static_cast<size_t>(i)];
      const ParamModel &pm = m_.params[static_cast<size_t>(i)];
      param_ = p.name ? p.name : "?";
      const bool in = sig::in_part_includes(p),
                 out = sig::out_part_includes(p) || sig::deferred_part_includes(p);
      if (dp.has_in != in || dp.has_out != out) {
        problem(" ", "decoded with the wrong parts");
        continue;
      }
      if (in)
        value(dp.in, pm.before, p, pm, 0);
      if (out)
        value(dp.out, pm.after, p, pm, 1);
    }
    return problems_;
  }

private:
  void problem(const std::string &where, const std::string &what) {
    std::ostringstream s;
    s << m_.function_name << " [" << case_name(m_.c) << "]";
    if (!where.empty())
      s << " " << param_ << where;
    s << ": " << what;
    problems_.push_back(s.str());
  }

  void value(const DecodedValue &dv, const Value &ev, const ParamInfo &p, const ParamModel &pm,
             int phase) {
    const std::string where = phase ? " (out)" : " (in)";
    if (!sig::has_array_prefix(p)) {
      if (dv.array || dv.elements.size() != 1) {
        problem(where, "decoded as an array, expected one element");
        return;
      }
      Element e = ev.elements.at(0);
      if (pm.absent) { // a root-only buffer, string or string array at a non-root
        e.sym = Sym::Null;
        e.present = false;
        e.items.clear();
      }
      if (p.role == Role::String && phase == 1 && m_.return_code != MPI_SUCCESS)
        e.present = false; // an out string of a failed call
      element(dv.elements[0], e, p, pm, where);
      return;
    }
    const bool null = ev.null || pm.absent;
    if (!dv.array) {
      problem(where, "decoded as one element, expected an array");
      return;
    }
    if (dv.null != null) {
      problem(where, std::string("decoded ") + (dv.null ? "NULL" : "an array") + ", expected " +
                         (null ? "NULL" : "an array"));
      return;
    }
    if (null)
      return;
    if (dv.elements.size() != ev.elements.size()) {
      problem(where, std::to_string(dv.elements.size()) + " elements, expected " +
                         std::to_string(ev.elements.size()));
      return;
    }
    for (size_t k = 0; k < ev.elements.size(); ++k)
      element(dv.elements[k], ev.elements[k], p, pm, where + "[" + std::to_string(k) + "]");
  }

  void element(const DecodedElement &de, const Element &e, const ParamInfo &p, const ParamModel &pm,
               const std::string &where) {
    ++compared_;
    if (p.flags & kFlagMatrix3) {
      if (de.integer != e.integer)
        problem(where, std::to_string(de.integer) + ", expected " + std::to_string(e.integer));
      return;
    }
    switch (p.role) {
    case Role::Offset: {
      // As a reader resolves it: base + stride x the world rank, 0 in the
      // singleton this test runs as.
      int64_t v = de.integer;
      offset_at_rank(de.stride, de.integer, 0, v);
      if (v != e.integer)
        problem(where, std::to_string(v) + ", expected " + std::to_string(e.integer));
      return;
    }
    case Role::Value:
      if (de.integer != e.integer)
        problem(where, std::to_string(de.integer) + ", expected " + std::to_string(e.integer));
      return;
    case Role::Double:
      if (de.real != e.real)
        problem(where, std::to_string(de.real) + ", expected " + std::to_string(e.real));
      return;
    case Role::Tag: {
      const TagRef t = resolve_tag(de.code);
      if (t.any != (e.integer == MPI_ANY_TAG) || (!t.any && t.tag != e.integer))
        problem(where, "tag code " + std::to_string(de.code) + ", expected tag " +
                           (e.integer == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(e.integer)));
      return;
    }
    case Role::Rank:
      rank(de.code, e.integer, pm.base, (p.flags & kFlagRelative) != 0, false, where);
      return;
    case Role::Handle:
      symbol(de.code, e, static_cast<int>(p.handle_kind), where);
      return;
    case Role::Callback:
      symbol(de.code, e, kCallbackSpace, where);
      return;
    case Role::Buffer:
    case Role::Pointer:
      address(de.code, e, p.role, where);
      return;
    case Role::Address:
      address_value(de, e, where);
      return;
    case Role::Opaque:
      if (de.code != static_cast<uint64_t>(e.integer))
        problem(where,
                "opaque " + std::to_string(de.code) + ", expected " + std::to_string(e.integer));
      return;
    case Role::String:
      string(de, e, where);
      return;
    case Role::StringArray:
      string_array(de, e, where);
      return;
    case Role::ArgvArray:
      if ((de.code != 0) != e.present || de.items.size() != e.items.size()) {
        problem(where, "argv arrays differ in presence or count");
        return;
      }
      for (size_t k = 0; k < e.items.size(); ++k)
        string_array(de.items[k], e.items[k], where + "[" + std::to_string(k) + "]");
      return;
    case Role::Status:
      status(de.status, e, p, where);
      return;
    default:
      problem(where, "role not checked");
    }
  }

  void string(const DecodedElement &de, const Element &e, const std::string &where) {
    if ((de.code != 0) != e.present)
      problem(where, std::string("string ") + (de.code ? "present" : "NULL") + ", expected " +
                         (e.present ? "\"" + e.text + "\"" : "NULL"));
    else if (e.present && de.text != e.text)
      problem(where, "string \"" + de.text + "\", expected \"" + e.text + "\"");
  }

  void string_array(const DecodedElement &de, const Element &e, const std::string &where) {
    if ((de.code != 0) != e.present || de.items.size() != e.items.size()) {
      problem(where, "string array of " + std::to_string(de.items.size()) + " (" +
                         (de.code ? "present" : "NULL") + "), expected " +
                         std::to_string(e.items.size()) + (e.present ? "" : " (NULL)"));
      return;
    }
    for (size_t k = 0; k < e.items.size(); ++k)
      string(de.items[k], e.items[k], where + "[" + std::to_string(k) + "]");
  }

  void symbol(uint64_t code, const Element &e, int space, const std::string &where) {
    const bool callback = space == kCallbackSpace;
    const HandleRef h =
        callback ? resolve_callback(code) : resolve_handle(static_cast<HandleKind>(space), code);
    switch (e.sym) {
    case Sym::Null:
      if (!h.null())
        problem(where, "code " + std::to_string(code) + ", expected null");
      return;
    case Sym::Predefined: {
      const char *name = h.predefined() ? h.name : nullptr;
      if (!name || e.name != name)
        problem(where, "code " + std::to_string(code) + " (" + (name ? name : "not predefined") +
                           "), expected " + e.name);
      return;
    }
    case Sym::User: {
      if (!h.user()) {
        problem(where, "code " + std::to_string(code) + ", expected a user " +
                           (callback ? "callback" : "handle"));
        return;
      }
      const std::string why = symbols_.bind(space, e.key, h.id);
      if (!why.empty())
        problem(where, why);
      return;
    }
    default:
      problem(where, "nothing expected");
    }
  }

  void address(uint64_t code, const Element &e, Role role, const std::string &where) {
    const uint64_t first = role == Role::Buffer ? sig::kBufferFirstId : 1;
    uint64_t want = 0;
    switch (e.sym) {
    case Sym::Null:
      want = 0;
      break;
    case Sym::InPlace:
      want = sig::kBufferInPlace;
      break;
    case Sym::Bottom:
      want = sig::kBufferBottom;
      break;
    case Sym::User: {
      if (code < first) {
        problem(where, "code " + std::to_string(code) + ", expected an address id");
        return;
      }
      const std::string why = symbols_.bind(kAddressSpace, e.key, code - first);
      if (!why.empty())
        problem(where, why);
      return;
    }
    default:
      break;
    }
    if (code != want)
      problem(where, "code " + std::to_string(code) + ", expected " + std::to_string(want));
  }

  // An Address element: the value itself, or an address id (bound like a
  // Pointer's) plus the offset.
  void address_value(const DecodedElement &de, const Element &e, const std::string &where) {
    if (e.sym != Sym::User) {
      if (de.code != sig::kAddressValue || de.integer != e.integer)
        problem(where, "address code " + std::to_string(de.code) + " " +
                           std::to_string(de.integer) + ", expected the value " +
                           std::to_string(e.integer));
      return;
    }
    if (de.code < sig::kAddressFirstId) {
      problem(where, "address code " + std::to_string(de.code) + ", expected an address id");
      return;
    }
    const std::string why = symbols_.bind(kAddressSpace, e.key, de.code - sig::kAddressFirstId);
    if (!why.empty())
      problem(where, why);
    if (de.integer != e.integer)
      problem(where,
              "offset " + std::to_string(de.integer) + ", expected " + std::to_string(e.integer));
  }

  // Whether `code` stands for `expected`, resolved against `base`.
  // A status's source (`status_source`) may be stored either way: the status
  // rules (FORMAT.md §8.3) choose its base, which the call need not name.
  void rank(uint64_t code, int64_t expected, const RankBase &base, bool relative_allowed,
            bool status_source, const std::string &where) {
    const RankRef r = resolve_rank(code, pilgrim::RankBase{});
    int64_t got = 0;
    std::string how;
    switch (r.kind) {
    case RankCode::AnySource:
      got = MPI_ANY_SOURCE;
      break;
    case RankCode::ProcNull:
      got = MPI_PROC_NULL;
      break;
    case RankCode::Root:
      got = MPI_ROOT;
      break;
    case RankCode::Undefined:
      got = MPI_UNDEFINED;
      break;
    case RankCode::Absolute:
      got = r.offset;
      if (relative_allowed && base.known && !status_source)
        how = "stored absolute where a relative rank is allowed and the caller's rank known";
      break;
    case RankCode::Relative:
      if (!relative_allowed || !base.known) {
        how = "stored relative where the rank must be absolute";
        break;
      }
      got = base.rank + r.offset;
      break;
    case RankCode::Cartesian: {
      const int n = static_cast<int>(base.dims.size());
      if (!relative_allowed || !base.known) {
        how = "stored Cartesian where the rank must be absolute";
      } else if (n == 0 && status_source) {
        // No grid known here (a status's source, relative to the request's
        // communicator): every grid of a singleton has one process, so the
        // only offset is 0, the caller.
        if (r.offset != 0)
          how = "Cartesian offset " + std::to_string(r.offset) + " in a grid of one process";
        got = base.rank;
      } else if (n == 0) {
        how = "stored Cartesian in a communicator without a grid";
      } else if (!cart_decode(n, base.dims.data(), base.periods.data(), base.rank, r.offset, got)) {
        how = "Cartesian offset " + std::to_string(r.offset) + " names no rank of the grid";
      }
      break;
    }
    }
    if (!how.empty())
      problem(where, "rank code " + std::to_string(code) + ": " + how);
    else if (got != expected)
      problem(where, "rank code " + std::to_string(code) + " resolves to " + rank_text(got) +
                         ", expected " + rank_text(expected));
  }

  void status(const DecodedStatus &s, const Element &e, const ParamInfo &p,
              const std::string &where) {
    if (!e.present) {
      // A wildcard receive's MPI_STATUS_IGNORE: the tracer passes a status
      // of its own and keeps what matched (kind 5); the synthetic call writes
      // no status, so the sender is the cleared one, MPI_ANY_SOURCE.
      if (s.kind == sig::kStatusMatchKept) {
        if (s.source_code != sig::kRankAnySource || s.tag_code != sig::kTagAny ||
            s.count_bytes != 0)
          problem(where, "kept source code " + std::to_string(s.source_code) + ", tag code " +
                             std::to_string(s.tag_code) + ", count " +
                             std::to_string(s.count_bytes) +
                             ", expected MPI_ANY_SOURCE's, MPI_ANY_TAG's and 0");
        return;
      }
      if (s.kind != sig::kStatusIgnored)
        problem(where, "status kind " + std::to_string(s.kind) + ", expected MPI_STATUS_IGNORE");
      return;
    }
    const bool passed_in = p.dir != Direction::Out;
    switch (s.kind) {
    case sig::kStatusIgnored:
      problem(where, "MPI_STATUS_IGNORE, expected a status");
      return;
    case sig::kStatusEmpty:
      if (passed_in)
        problem(where, "status kind 1, expected 3 (count only) for a status passed in");
      return;
    case sig::kStatusFull: {
      if (passed_in)
        problem(where, "status kind 2, expected 3 (count only) for a status passed in");
      rank(s.source_code, e.source, m_.status_base, true, true, where + " source");
      const TagRef tag = resolve_tag(s.tag_code);
      if (tag.any || tag.tag != e.tag)
        problem(where, "status tag code " + std::to_string(s.tag_code) + ", expected tag " +
                           std::to_string(e.tag));
      break;
    }
    case sig::kStatusCountOnly:
      break;
    default:
      problem(where, "status kind " + std::to_string(s.kind));
      return;
    }
    if (s.count_bytes != e.count)
      problem(where, "status count " + std::to_string(s.count_bytes) + ", expected " +
                         std::to_string(e.count));
  }

  const DecodedCall &d_;
  const CallModel &m_;
  size_t &compared_;
  std::string param_;
  Symbols symbols_;
  std::vector<std::string> problems_;
};

} // namespace

std::vector<std::string> check_call(const DecodedCall &decoded, const CallModel &model,
                                    size_t &compared) {
  return Checker(decoded, model, compared).run();
}

} // namespace pilgrim::enctest
