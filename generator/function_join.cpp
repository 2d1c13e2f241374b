#include "function_join.h"

#include <algorithm>
#include <map>
#include <set>

namespace pilgrim::gen {
namespace {

bool is_integer(CType t) {
  return t == CType::Int || t == CType::Long || t == CType::Aint || t == CType::Count ||
         t == CType::Offset || t == CType::Fint;
}

bool by_value_scalar(const HeaderParam &p) { return p.pointer_depth == 0 && is_integer(p.base); }

// Returns an error message, or "" if the role fits the C type.
std::string check_role(const HeaderParam &h, const SidecarParam &s) {
  auto want = [&](bool ok, const char *what) -> std::string {
    return ok ? ""
              : std::string("role ") + role_name(s.role) + " needs " + what + ", header has '" +
                    h.type + "'";
  };
  switch (s.role) {
  case Role::Value:
  case Role::Rank:
  case Role::Tag:
  case Role::Offset:
    return want(is_integer(h.base), "an integer type");
  case Role::Address:
    return want(h.base == CType::Aint || h.base == CType::Count, "MPI_Aint or MPI_Count");
  case Role::Double:
    return want(h.base == CType::Double, "double");
  case Role::Handle:
    if (s.kind == HandleKind::Keyval)
      return want(h.base == CType::Int, "int (keyval)");
    if (s.kind == HandleKind::Fd)
      return want(h.base == CType::Int, "int (file descriptor)");
    if (s.kind == HandleKind::Stream)
      return want(h.base == CType::Void && h.pointer_depth >= 1, "void * (FILE *)");
    return want(h.base == CType::Handle, "an MPI handle type");
  case Role::Buffer:
    return want(h.base == CType::Void && h.pointer_depth == 1, "void *");
  case Role::Status:
    return want(h.base == CType::Status && h.pointer_depth >= 1, "MPI_Status *");
  case Role::String:
    return want(h.base == CType::Char && h.pointer_depth == 1, "char *");
  case Role::StringArray:
    return want(h.base == CType::Char && h.pointer_depth == 2, "char *[]");
  case Role::ArgvArray:
    return want(h.base == CType::Char && h.pointer_depth == 3, "char **[]");
  case Role::Callback:
    return want(h.is_function, "a function pointer");
  case Role::Pointer:
    return want((h.base == CType::Void && h.pointer_depth >= 1) ||
                    (h.base == CType::Aint && h.pointer_depth <= 1),
                "void * or MPI_Aint");
  case Role::Opaque:
    return "";
  case Role::Varargs:
    return "role varargs is only for the '...' of a variadic function";
  }
  return "unknown role";
}

// Roles whose single element is itself reached through the pointer.
bool pointer_is_the_value(Role r) {
  return r == Role::Buffer || r == Role::String || r == Role::Pointer || r == Role::Opaque ||
         r == Role::StringArray || r == Role::ArgvArray || r == Role::Callback;
}

} // namespace

int default_function_id(const std::string &name) {
  uint32_t h = 2166136261u;
  for (unsigned char c : name) {
    h ^= c;
    h *= 16777619u;
  }
  return 0x8000 | static_cast<int>(h % 0x7fff);
}

bool join_params(const HeaderFunction &hf, const SidecarFunction &sf, JoinedFunction &jf,
                 std::vector<SidecarDiagnostic> &errors) {
  bool ok = true;
  for (size_t i = 0; i < sf.params.size(); ++i) {
    const SidecarParam &sp = sf.params[i];
    JoinedParam jp;
    jp.sidecar = &sp;
    auto fail = [&](const std::string &msg) {
      errors.push_back({sp.loc, hf.name + "(" + sp.name + "): " + msg});
      ok = false;
    };
    if (i == hf.params.size()) { // the "..." of a variadic function
      if (sp.role != Role::Varargs)
        fail("the header declares '...' here: use role varargs");
      jf.params.push_back(std::move(jp));
      continue;
    }
    const HeaderParam &hp = hf.params[i];
    jp.header = &hp;
    std::string msg = check_role(hp, sp);
    if (!msg.empty()) {
      fail(msg);
      continue;
    }
    if (sp.dir != Direction::In && hp.pointer_depth == 0 && !hp.is_function)
      fail(std::string("direction ") + direction_name(sp.dir) + " needs a pointer, header has '" +
           hp.type + "'");
    bool element_pointer =
        hp.pointer_depth >= 1 && !pointer_is_the_value(sp.role) && sp.role != Role::Status;
    if ((hp.is_array || hp.is_matrix3) && !sp.len && !pointer_is_the_value(sp.role))
      fail("array parameter '" + hp.type + "' needs 'len'");
    if (sp.len && hp.pointer_depth == 0)
      fail("'len' given for a parameter that is not a pointer ('" + hp.type + "')");
    if (hp.pointer_depth >= 1)
      jp.flags |= kFlagPointer;
    if (sp.len)
      jp.flags |= kFlagArray;
    if (hp.is_const)
      jp.flags |= kFlagConst;
    if (hp.is_matrix3)
      jp.flags |= kFlagMatrix3;
    if (sp.nullterm)
      jp.flags |= kFlagNullTerminated;
    if (sp.role == Role::Rank && sp.relative)
      jp.flags |= kFlagRelative;
    if (!sp.root.empty()) {
      jp.flags |= kFlagRootOnly;
      jp.ref3 = sf.param_index(sp.root);
    }
    (void)element_pointer;
    if (sp.role == Role::Rank)
      jp.ref = sf.param_index(sp.comm);
    if (sp.role == Role::Buffer) {
      jp.ref = sf.param_index(!sp.bytes.empty() ? sp.bytes : sp.count);
      jp.ref2 = sp.datatype.empty() ? -1 : sf.param_index(sp.datatype);
    }
    if (!sp.flag.empty() && sp.role != Role::Status) {
      jp.flags |= kFlagWhenFlag;
      jp.ref = sf.param_index(sp.flag);
    } else if (sp.role == Role::Pointer && !sp.bytes.empty())
      jp.ref = sf.param_index(sp.bytes); // memory MPI allocated, this many bytes
    if (sp.role == Role::Status && !sp.index.empty())
      jp.ref = sf.param_index(sp.index);
    if (sp.role == Role::Offset) // stride x world rank + base (docs/FORMAT.md §8.3)
      jp.flags |= kFlagRankStride;
    if (sp.role == Role::Address && !sp.target.empty()) {
      // A target displacement: the window (the target rank's `comm`) and the rank.
      jp.ref2 = sf.param_index(sp.target);
      jp.ref = sf.param_index(sf.params[static_cast<size_t>(jp.ref2)].comm);
    }
    if (sp.len) {
      std::vector<std::string> names;
      length_param_names(*sp.len, names);
      for (const auto &n : names) {
        const SidecarParam &ref = sf.params[sf.param_index(n)];
        if (ref.dir == Direction::Out)
          jp.flags |= kFlagLengthAfter;
      }
      jp.rpn = length_to_rpn(*sp.len, [&](const std::string &n) { return sf.param_index(n); });
    }
    jf.params.push_back(std::move(jp));
  }
  return ok;
}

JoinResult join(const HeaderModel &header, const SidecarSet &sidecars) {
  JoinResult r;
  std::set<std::string> in_header;
  std::map<int, std::string> default_ids;
  for (const HeaderFunction &hf : header.functions) {
    in_header.insert(hf.name);
    if (hf.name == "MPI_Wtime" || hf.name == "MPI_Wtick") {
      r.left_out_optional.push_back(hf.name);
      continue;
    }
    const SidecarFunction *sf = sidecars.find(hf.name);
    bool defaulted = false;
    if (!sf) {
      bool all_scalar =
          !hf.variadic && std::all_of(hf.params.begin(), hf.params.end(), by_value_scalar);
      if (!all_scalar) {
        r.unannotated.push_back(hf.name);
        continue;
      }
      SidecarFunction syn;
      syn.name = hf.name;
      syn.id = default_function_id(hf.name);
      syn.loc = {"<default>", 0};
      for (size_t i = 0; i < hf.params.size(); ++i) {
        SidecarParam p;
        p.name =
            hf.params[i].header_name.empty() ? "arg" + std::to_string(i) : hf.params[i].header_name;
        p.role = Role::Value;
        syn.params.push_back(std::move(p));
      }
      auto clash = default_ids.find(syn.id);
      if (clash != default_ids.end()) {
        r.plain_errors.push_back("error: " + hf.name + ": default id collides with " +
                                 clash->second + "; annotate one of them");
        continue;
      }
      default_ids[syn.id] = hf.name;
      r.synthesized.push_back(std::move(syn));
      sf = &r.synthesized.back();
      defaulted = true;
      r.defaulted.push_back(hf.name);
    }
    size_t expected = hf.params.size() + (hf.variadic ? 1 : 0);
    if (sf->params.size() != expected) {
      r.errors.push_back({sf->loc, hf.name + ": the sidecar lists " +
                                       std::to_string(sf->params.size()) +
                                       " parameters, the header declares " +
                                       std::to_string(expected) + " (" + hf.location + ")"});
      continue;
    }
    JoinedFunction jf;
    jf.header = &hf;
    jf.sidecar = sf;
    jf.defaulted = defaulted;
    const bool ok = join_params(hf, *sf, jf, r.errors);
    if (ok)
      r.wrapped.push_back(std::move(jf));
  }
  for (const auto &sf : sidecars.functions)
    if (!in_header.count(sf.name))
      r.sidecar_only.push_back(sf.name);
  std::sort(r.wrapped.begin(), r.wrapped.end(),
            [](const JoinedFunction &a, const JoinedFunction &b) { return a.id() < b.id(); });
  std::sort(r.sidecar_only.begin(), r.sidecar_only.end());
  join_records(sidecars, r);
  return r;
}

} // namespace pilgrim::gen
