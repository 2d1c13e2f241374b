#include "sidecar_loader.h"

#include "pilgrim/record_ranges.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

namespace pilgrim::gen {
namespace {

template <class E> struct NameEntry {
  const char *name;
  E value;
};

const NameEntry<Role> kRoles[] = {
    {"value", Role::Value},
    {"rank", Role::Rank},
    {"tag", Role::Tag},
    {"handle", Role::Handle},
    {"buffer", Role::Buffer},
    {"status", Role::Status},
    {"string", Role::String},
    {"callback", Role::Callback},
    {"offset", Role::Offset},
    {"pointer", Role::Pointer},
    {"string_array", Role::StringArray},
    {"argv_array", Role::ArgvArray},
    {"opaque", Role::Opaque},
    {"double", Role::Double},
    {"varargs", Role::Varargs},
    {"address", Role::Address},
};
const NameEntry<Direction> kDirections[] = {
    {"in", Direction::In}, {"out", Direction::Out}, {"inout", Direction::InOut}};
const NameEntry<HandleKind> kKinds[] = {
    {"comm", HandleKind::Comm},
    {"group", HandleKind::Group},
    {"datatype", HandleKind::Datatype},
    {"op", HandleKind::Op},
    {"info", HandleKind::Info},
    {"errhandler", HandleKind::Errhandler},
    {"file", HandleKind::File},
    {"win", HandleKind::Win},
    {"request", HandleKind::Request},
    {"message", HandleKind::Message},
    {"session", HandleKind::Session},
    {"keyval", HandleKind::Keyval},
    {"fd", HandleKind::Fd},
    {"stream", HandleKind::Stream},
};
const NameEntry<HandleAction> kActions[] = {
    {"use", HandleAction::Use}, {"create", HandleAction::Create}, {"free", HandleAction::Free}};

template <class E, size_t N>
bool lookup(const NameEntry<E> (&table)[N], const std::string &s, E &out) {
  for (const auto &e : table)
    if (s == e.name) {
      out = e.value;
      return true;
    }
  return false;
}
template <class E, size_t N> const char *name_of(const NameEntry<E> (&table)[N], E v) {
  for (const auto &e : table)
    if (e.value == v)
      return e.name;
  return "?";
}
template <class E, size_t N> std::string choices(const NameEntry<E> (&table)[N]) {
  std::string s;
  for (const auto &e : table)
    s += std::string(s.empty() ? "" : ", ") + e.name;
  return s;
}

class Loader {
public:
  Loader(std::vector<SidecarDiagnostic> &errors) : errors_(errors) {}

  void load_file(const std::string &file, SidecarSet &set) {
    YAML::Node root;
    try {
      root = YAML::LoadFile(file);
    } catch (const YAML::ParserException &e) {
      error({file, e.mark.line + 1}, e.msg);
      return;
    } catch (const YAML::BadFile &) {
      error({file, 0}, "cannot read file");
      return;
    }
    if (root.IsNull())
      return;
    if (!root.IsMap()) {
      error(loc(file, root), "expected a map from function names to entries");
      return;
    }
    for (auto it = root.begin(); it != root.end(); ++it) {
      SidecarFunction fn;
      fn.loc = loc(file, it->first);
      if (!it->first.IsScalar()) {
        error(fn.loc, "function name must be a string");
        continue;
      }
      fn.name = it->first.as<std::string>();
      // A copy: the iterator yields a temporary pair, and Nodes are handles.
      const YAML::Node body = it->second;
      const bool record = body.IsMap() && static_cast<bool>(body["kind"]);
      if (!record && fn.name.rfind("MPI_", 0) != 0) {
        error(fn.loc, "'" + fn.name + "' is not an MPI function name (MPI_...)");
        continue;
      }
      if (!load_function(file, it->second, fn))
        continue;
      auto dup = names_.find(fn.name);
      if (dup != names_.end()) {
        const auto &other = dup->second;
        error(fn.loc, fn.name + " is annotated twice (also at " + other.file + ":" +
                          std::to_string(other.line) + ")");
        continue;
      }
      auto id_dup = ids_.find(fn.id);
      if (id_dup != ids_.end()) {
        error(fn.loc,
              fn.name + ": id " + std::to_string(fn.id) + " is already used by " + id_dup->second);
        continue;
      }
      ids_[fn.id] = fn.name;
      names_[fn.name] = fn.loc;
      if (fn.kind != RecordKind::None) {
        set.records.push_back(std::move(fn));
        continue;
      }
      set.by_name[fn.name] = set.functions.size();
      set.functions.push_back(std::move(fn));
    }
  }

private:
  static SourceLoc loc(const std::string &file, const YAML::Node &n) {
    return {file, n.Mark().line + 1};
  }
  void error(const SourceLoc &l, const std::string &msg) { errors_.push_back({l, msg}); }

  bool load_function(const std::string &file, const YAML::Node &body, SidecarFunction &fn) {
    if (!body.IsMap()) {
      error(loc(file, body), fn.name + ": expected a map with 'id' and 'params'");
      return false;
    }
    bool ok = true, have_params = false;
    SourceLoc id_loc = fn.loc;
    bool kind_bad = false;
    for (auto it = body.begin(); it != body.end(); ++it) {
      std::string key = it->first.as<std::string>();
      SourceLoc kl = loc(file, it->first);
      if (key == "id") {
        id_loc = kl;
        try {
          fn.id = it->second.as<int>();
        } catch (const YAML::Exception &) {
          fn.id = -1;
        }
        if (fn.id < 1 || fn.id >= 0x8000) {
          error(kl, fn.name + ": id must be an integer in [1, 32767]");
          ok = false;
        }
      } else if (key == "kind") {
        const std::string v = it->second.as<std::string>("");
        for (const RecordRange &r : kRecordRanges)
          if (v == r.name)
            fn.kind = r.kind;
        if (fn.kind == RecordKind::None) {
          error(kl, fn.name + ": bad kind '" + v + "' (expected " + record_kind_choices() + ")");
          ok = false;
          kind_bad = true;
        }
      } else if (key == "note") {
        fn.note = it->second.as<std::string>("");
      } else if (key == "params") {
        have_params = true;
        if (it->second.IsNull())
          continue; // a function without parameters
        if (!it->second.IsMap()) {
          error(kl, fn.name + ": 'params' must be a map in prototype order");
          ok = false;
          continue;
        }
        for (auto p = it->second.begin(); p != it->second.end(); ++p) {
          SidecarParam param;
          param.name = p->first.as<std::string>();
          param.loc = loc(file, p->first);
          if (fn.param_index(param.name) >= 0) {
            error(param.loc, fn.name + ": parameter '" + param.name + "' listed twice");
            ok = false;
            continue;
          }
          ok &= load_param(file, fn.name, p->second, param);
          fn.params.push_back(std::move(param));
        }
      } else {
        error(kl, fn.name + ": unknown field '" + key + "' (expected id, kind, params, note)");
        ok = false;
      }
    }
    if (fn.id > 0 && !kind_bad && !check_id_range(fn, id_loc))
      ok = false;
    if (fn.id < 0 && ok) {
      error(fn.loc, fn.name + ": missing 'id'");
      ok = false;
    }
    if (!have_params) {
      error(fn.loc, fn.name + ": missing 'params'");
      ok = false;
    }
    bool refs_ok = check_references(fn);
    for (const SidecarParam &p : fn.params)
      if ((fn.kind != RecordKind::None) != !p.type.empty()) {
        error(p.loc, fn.name + "(" + p.name + "): " +
                         (p.type.empty() ? "a record's parameter needs 'type' (its C type)"
                                         : "'type' is only for records (the header gives it)"));
        ok = false;
      }
    return ok && refs_ok;
  }

  static std::string record_kind_choices() {
    std::string s;
    for (const RecordRange &r : kRecordRanges)
      s += std::string(s.empty() ? "" : ", ") + r.name;
    return s;
  }

  // MPI functions stay out of the records' range; a record lies in its kind's.
  bool check_id_range(const SidecarFunction &fn, const SourceLoc &l) {
    const auto id = static_cast<uint16_t>(fn.id);
    const auto hex = [](int v) {
      char b[8];
      std::snprintf(b, sizeof b, "0x%04X", static_cast<unsigned>(v));
      return std::string(b);
    };
    if (fn.kind == RecordKind::None && is_record(id)) {
      error(l, fn.name + ": ids " + hex(kFirstRecordId) + "-" + hex(kLastRecordId) +
                   " are the records that are not MPI calls (docs/FORMAT.md 6.2)");
      return false;
    }
    const RecordRange *r = record_range(fn.kind);
    if (r && (id < r->first || id > r->last)) {
      error(l, fn.name + ": a record of kind " + r->name + " needs an id in " + hex(r->first) +
                   "-" + hex(r->last) + " (docs/FORMAT.md 6.2)");
      return false;
    }
    return true;
  }

  bool load_param(const std::string &file, const std::string &fname, const YAML::Node &n,
                  SidecarParam &p) {
    const std::string what = fname + "(" + p.name + ")";
    if (n.IsScalar()) {
      std::string r = n.as<std::string>();
      if (!lookup(kRoles, r, p.role)) {
        error(loc(file, n), what + ": unknown role '" + r + "' (expected " + choices(kRoles) + ")");
        return false;
      }
      return check_param(file, n, what, p);
    }
    if (!n.IsMap()) {
      error(loc(file, n), what + ": expected a role name or a map");
      return false;
    }
    bool ok = true, have_role = false;
    for (auto it = n.begin(); it != n.end(); ++it) {
      std::string key = it->first.as<std::string>();
      SourceLoc kl = loc(file, it->first);
      if (!it->second.IsScalar()) {
        error(kl, what + ": field '" + key + "' must be a scalar");
        ok = false;
        continue;
      }
      std::string v = it->second.as<std::string>();
      auto bad = [&](const std::string &expected) {
        error(kl, what + ": bad " + key + " '" + v + "' (expected " + expected + ")");
        ok = false;
      };
      if (key == "role") {
        have_role = true;
        if (!lookup(kRoles, v, p.role))
          bad(choices(kRoles));
      } else if (key == "dir") {
        p.dir_given = true;
        if (!lookup(kDirections, v, p.dir))
          bad(choices(kDirections));
      } else if (key == "kind") {
        if (!lookup(kKinds, v, p.kind))
          bad(choices(kKinds));
      } else if (key == "action") {
        if (!lookup(kActions, v, p.action))
          bad(choices(kActions));
      } else if (key == "len") {
        p.len_text = v;
        try {
          p.len = parse_length(v);
        } catch (const LengthParseError &e) {
          error(kl, what + ": " + e.what());
          ok = false;
        }
      } else if (key == "comm") {
        p.comm = v;
      } else if (key == "count") {
        p.count = v;
      } else if (key == "datatype") {
        p.datatype = v;
      } else if (key == "bytes") {
        p.bytes = v;
      } else if (key == "root") {
        p.root = v;
      } else if (key == "index") {
        p.index = v;
      } else if (key == "flag") {
        p.flag = v;
      } else if (key == "target") {
        p.target = v;
      } else if (key == "type") {
        p.type = v;
      } else if (key == "relative" || key == "nullterm" || key == "record" || key == "layout" ||
                 key == "fortran_choice" || key == "fortran_int" || key == "fortran_local") {
        bool b;
        if (v == "true")
          b = true;
        else if (v == "false")
          b = false;
        else {
          bad("true or false");
          continue;
        }
        (key == "relative"        ? p.relative
         : key == "nullterm"      ? p.nullterm
         : key == "record"        ? p.record
         : key == "layout"        ? p.layout
         : key == "fortran_int"   ? p.fortran_int
         : key == "fortran_local" ? p.fortran_local
                                  : p.fortran_choice) = b;
      } else {
        error(kl, what + ": unknown field '" + key + "'");
        ok = false;
      }
    }
    if (!have_role) {
      error(loc(file, n), what + ": missing 'role'");
      return false;
    }
    return ok && check_param(file, n, what, p);
  }

  // Field combinations that only make sense for some roles.
  bool check_param(const std::string &file, const YAML::Node &n, const std::string &what,
                   SidecarParam &p) {
    SourceLoc l = loc(file, n);
    bool ok = true;
    auto need = [&](bool cond, const std::string &msg) {
      if (!cond) {
        error(l, what + ": " + msg);
        ok = false;
      }
    };
    need(p.role == Role::Handle || p.kind == HandleKind::None, "'kind' is only for handles");
    need(p.role != Role::Handle || p.kind != HandleKind::None, "a handle needs 'kind'");
    need(p.role == Role::Handle || p.action == HandleAction::None, "'action' is only for handles");
    if (p.role == Role::Handle && p.action == HandleAction::None)
      p.action = HandleAction::Use;
    need(p.role == Role::Rank || p.comm.empty(), "'comm' is only for ranks");
    need(p.role != Role::Rank || !p.comm.empty(), "a rank needs 'comm'");
    need(p.role == Role::Buffer || (p.count.empty() && p.datatype.empty()),
         "'count' and 'datatype' are only for buffers");
    need(p.role == Role::Buffer || p.bytes.empty() ||
             (p.role == Role::Pointer && p.dir == Direction::Out),
         "'bytes' is only for buffers and out pointers");
    need(p.role == Role::Status || p.index.empty(), "'index' is only for statuses");
    need(p.flag.empty() || p.dir != Direction::In, "'flag' is only for out parameters");
    need(p.flag.empty() || p.role == Role::Status || p.role == Role::Value ||
             p.role == Role::Handle || p.role == Role::Pointer || p.role == Role::String,
         "'flag' is only for statuses, values, handles, pointers and strings");
    need(p.flag.empty() || p.bytes.empty(), "'flag' and 'bytes' exclude each other");
    need(p.role == Role::Address || p.target.empty(), "'target' is only for addresses");
    need(p.role == Role::Callback || !p.record, "'record' is only for callbacks");
    need(!p.layout || (p.role == Role::Handle && p.kind == HandleKind::Datatype &&
                       p.action != HandleAction::Free),
         "'layout' is only for datatype handles the call does not free");
    need(!p.fortran_choice || (p.role == Role::Pointer && p.dir == Direction::In),
         "'fortran_choice' is only for pointers the call reads");
    need(!p.fortran_int || p.role == Role::Pointer, "'fortran_int' is only for pointers");
    need(!p.fortran_local || (p.role == Role::Pointer && p.dir == Direction::Out),
         "'fortran_local' is only for pointers the call writes");
    need(p.datatype.empty() || !p.count.empty(), "'datatype' needs 'count'");
    need(p.bytes.empty() || (p.count.empty() && p.datatype.empty()),
         "'bytes' excludes 'count' and 'datatype'");
    need(p.role != Role::Handle || p.action != HandleAction::Create || p.dir != Direction::In,
         "a created handle must be 'out' or 'inout'");
    need(p.role != Role::Handle || p.action != HandleAction::Free || p.dir == Direction::InOut,
         "a freed handle must be 'inout'");
    return ok;
  }

  bool check_references(SidecarFunction &fn) {
    bool ok = true;
    for (auto &p : fn.params) {
      auto ref = [&](const std::string &name, const char *field) {
        if (!name.empty() && fn.param_index(name) < 0) {
          error(p.loc, fn.name + "(" + p.name + "): " + field + " '" + name +
                           "' is not a parameter of " + fn.name);
          ok = false;
        }
      };
      ref(p.comm, "comm");
      ref(p.count, "count");
      ref(p.datatype, "datatype");
      ref(p.bytes, "bytes");
      ref(p.root, "root");
      ref(p.index, "index");
      ref(p.flag, "flag");
      ref(p.target, "target");
      if (!p.target.empty() && fn.param_index(p.target) >= 0) {
        const SidecarParam &t = fn.params[static_cast<size_t>(fn.param_index(p.target))];
        const int w = t.comm.empty() ? -1 : fn.param_index(t.comm);
        if (t.role != Role::Rank || w < 0 ||
            fn.params[static_cast<size_t>(w)].kind != HandleKind::Win) {
          error(p.loc,
                fn.name + "(" + p.name + "): target '" + p.target + "' must be a rank in a window");
          ok = false;
        }
      }
      if (p.len) {
        std::vector<std::string> names;
        length_param_names(*p.len, names);
        for (const auto &name : names)
          ref(name, "len refers to");
      }
    }
    return ok;
  }

  std::vector<SidecarDiagnostic> &errors_;
  std::map<int, std::string> ids_;
  std::map<std::string, SourceLoc> names_;
};

} // namespace

int SidecarFunction::param_index(const std::string &n) const {
  for (size_t i = 0; i < params.size(); ++i)
    if (params[i].name == n)
      return static_cast<int>(i);
  return -1;
}

const SidecarFunction *SidecarSet::find(const std::string &name) const {
  auto it = by_name.find(name);
  return it == by_name.end() ? nullptr : &functions[it->second];
}

std::string SidecarDiagnostic::str() const {
  return loc.file + ":" + std::to_string(loc.line) + ": error: " + message;
}

SidecarSet load_sidecars(const std::vector<std::string> &files,
                         std::vector<SidecarDiagnostic> &errors) {
  SidecarSet set;
  Loader loader(errors);
  for (const auto &f : files)
    loader.load_file(f, set);
  return set;
}

std::vector<std::string> sidecar_files_in(const std::string &dir,
                                          std::vector<SidecarDiagnostic> &errors) {
  std::vector<std::string> files;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    // A single file may be given instead of a folder.
    if (std::filesystem::is_regular_file(dir, ec))
      return {dir};
    errors.push_back({{dir, 0}, "annotation directory not found"});
    return files;
  }
  for (const auto &e : std::filesystem::directory_iterator(dir, ec))
    if (e.is_regular_file() && e.path().extension() == ".yaml")
      files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  if (files.empty())
    errors.push_back({{dir, 0}, "no *.yaml annotation files"});
  return files;
}

const char *role_name(Role r) { return name_of(kRoles, r); }
const char *direction_name(Direction d) { return name_of(kDirections, d); }
const char *handle_kind_name(HandleKind k) {
  return k == HandleKind::None ? "none" : name_of(kKinds, k);
}
const char *handle_action_name(HandleAction a) {
  return a == HandleAction::None ? "none" : name_of(kActions, a);
}

} // namespace pilgrim::gen
