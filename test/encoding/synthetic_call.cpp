#include "synthetic_call.h"

#include "pilgrim/length_eval.h"
#include "pilgrim/signature_encoding.h"
#include "untraced.h"

#include <cstdio>
#include <cstdlib>

namespace pilgrim::enctest {
namespace {

constexpr size_t kSlack = 4; // elements allocated beyond the longest length

// Three functions whose addresses stand for user callbacks.
void user_callback_0() {}
void user_callback_1() {}
void user_callback_2() {}
uint64_t user_callback(int k) {
  static void (*const fns[])() = {user_callback_0, user_callback_1, user_callback_2};
  return reinterpret_cast<uintptr_t>(reinterpret_cast<const void *>(fns[k % 3]));
}

// A length program asked for an array not built yet.
struct NotBuilt {};

bool is_array(const ParamInfo &p) { return (p.flags & kFlagArray) != 0; }

} // namespace

const char *case_name(Case c) {
  switch (c) {
  case Case::Several:
    return "several";
  case Case::Empty:
    return "empty";
  case Case::Null:
    return "null";
  case Case::One:
    return "one";
  }
  return "?";
}

SyntheticCall::SyntheticCall(HandlePool &pool, const FunctionInfo &f, Case c)
    : pool_(pool), f_(f), case_(c) {
  model_.function_id = f.id;
  model_.function_name = f.name ? f.name : "";
  model_.c = c;
  // A failed call in one case: out strings are then not kept.
  model_.return_code = c == Case::One ? MPI_ERR_OTHER : MPI_SUCCESS;
  build();
}

void SyntheticCall::bad_type(int i, const char *what) const {
  std::fprintf(stderr, "encoding_roundtrip: %s parameter %s: unexpected C type for a %s\n", f_.name,
               f_.params[i].name, what);
  std::exit(2);
}

bool SyntheticCall::has_out(int i) const {
  return sig::out_part_includes(info(i)) || sig::deferred_part_includes(info(i));
}

int64_t SyntheticCall::driver_length(int phase) const {
  switch (case_) {
  case Case::Several:
    return phase == 0 ? 3 : 2;
  case Case::Empty:
    return 0;
  case Case::Null:
  case Case::One:
    return 1;
  }
  return 0;
}

void SyntheticCall::build() {
  const size_t n = f_.nparams;
  model_.params.resize(n);
  passing_.resize(n);
  built_.assign(n, false);
  driver_.assign(n, false);
  driver_array_.assign(n, false);
  root_.assign(n, false);
  shape_.assign(n, case_ == Case::One ? CommShape::Cart1 : CommShape::Plain);
  same_kind_.assign(n, 0);
  // What the length programs read: values that set lengths, arrays whose
  // elements do, and the communicators whose topology does.
  for (size_t i = 0; i < n; ++i) {
    const ParamInfo &p = f_.params[i];
    if (p.flags & kFlagRootOnly && p.ref3 >= 0)
      root_[static_cast<size_t>(p.ref3)] = true;
    for (uint8_t k = 0; p.len && k < p.len_size; ++k) {
      const LenInstr &in = p.len[k];
      if (in.arg < 0 || static_cast<size_t>(in.arg) >= n)
        continue;
      const size_t a = static_cast<size_t>(in.arg);
      if (in.op == LenOp::Param)
        driver_[a] = true;
      else if (in.op == LenOp::Elem || in.op == LenOp::Sum)
        driver_array_[a] = true;
      else if (in.op == LenOp::InDegree || in.op == LenOp::OutDegree)
        shape_[a] = case_ == Case::One ? CommShape::Cart1 : CommShape::DistGraph;
      else if (in.op == LenOp::CartDim)
        shape_[a] = case_ == Case::One ? CommShape::Cart1 : CommShape::Cart3;
    }
  }
  std::vector<int> per_kind(kHandleKindCount, 0);
  for (size_t i = 0; i < n; ++i)
    if (f_.params[i].role == Role::Handle)
      same_kind_[i] = per_kind[static_cast<size_t>(f_.params[i].handle_kind)]++;

  for (size_t i = 0; i < n; ++i)
    if (!is_array(f_.params[i]))
      build_scalar(static_cast<int>(i));
  // Arrays whose lengths read other arrays' elements come after those.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < n; ++i)
      if (!built_[i] && build_array(static_cast<int>(i)))
        progress = built_[i] = true;
  }
  for (size_t i = 0; i < n; ++i)
    if (!built_[i]) {
      std::fprintf(stderr, "encoding_roundtrip: %s parameter %s: length never computable\n",
                   f_.name, f_.params[i].name);
      std::exit(2);
    }
  resolve_bases();
  mark_absent();
}

// Parameters without kFlagArray: one element (a value, or what a pointer points to).
void SyntheticCall::build_scalar(int i) {
  const ParamInfo &p = info(i);
  ParamModel &m = model_.params[static_cast<size_t>(i)];
  Passing &pass = passing_[static_cast<size_t>(i)];
  const bool pointer = (p.flags & kFlagPointer) != 0;
  const bool prefixed = sig::has_array_prefix(p);
  pass.null_pointer = pointer && case_ == Case::Null && p.role != Role::Buffer &&
                      p.role != Role::Opaque &&
                      !(p.role == Role::Pointer && p.dir == Direction::In);
  if (p.role == Role::Status && case_ == Case::Empty) {
    pass.status_ignore = true;
    pass.null_pointer = false;
  }
  if (p.role == Role::Varargs) {
    built_[static_cast<size_t>(i)] = true;
    return;
  }
  for (int phase = 0; phase < 2; ++phase) {
    Value &v = phase == 0 ? m.before : m.after;
    if (prefixed && pass.null_pointer) {
      v.null = true;
      continue;
    }
    v.elements.push_back(element(i, 0, phase));
  }
  built_[static_cast<size_t>(i)] = true;
}

bool SyntheticCall::build_array(int i) {
  const ParamInfo &p = info(i);
  ParamModel &m = model_.params[static_cast<size_t>(i)];
  Passing &pass = passing_[static_cast<size_t>(i)];
  pass.null_pointer = case_ == Case::Null;
  pass.status_ignore = p.role == Role::Status && case_ == Case::Empty;
  if (pass.status_ignore)
    pass.null_pointer = false;
  // A null-terminated array's own length is the number of elements it is given.
  pass.intended = pass.null_pointer || pass.status_ignore ? 0 : driver_length(0);
  int64_t len[2] = {0, 0};
  for (int phase = 0; phase < 2; ++phase) {
    auto value_of = [&](int q) -> const Value & {
      const ParamModel &qm = model_.params[static_cast<size_t>(q)];
      return phase == 1 && has_out(q) ? qm.after : qm.before;
    };
    LengthAccessors acc;
    acc.value = [&](int q) -> int64_t {
      if (!built_[static_cast<size_t>(q)])
        throw NotBuilt{};
      const Value &v = value_of(q);
      if (v.null || v.elements.empty())
        return 0;
      const int64_t x = v.elements[0].integer;
      return x < 0 ? 0 : x;
    };
    acc.element = [&](int q, int64_t k) -> int64_t {
      if (!built_[static_cast<size_t>(q)])
        throw NotBuilt{};
      const Value &v = value_of(q);
      if (v.null || k >= static_cast<int64_t>(v.elements.size()))
        return 0;
      const int64_t x = v.elements[static_cast<size_t>(k)].integer;
      return x < 0 ? 0 : x;
    };
    acc.comm_fact = [&](LenOp op, int q) -> int64_t {
      if (!built_[static_cast<size_t>(q)])
        throw NotBuilt{};
      const ParamInfo &qi = info(q);
      const Value &v = value_of(q);
      if (qi.role != Role::Handle || v.elements.empty())
        return 0;
      return pool_.fact(op, qi.handle_kind, v.elements[0].key);
    };
    acc.null_terminated_length = [&](int q) -> int64_t {
      if (q != i)
        throw NotBuilt{};
      return pass.intended;
    };
    try {
      len[phase] = eval_length(f_, i, acc);
    } catch (const NotBuilt &) {
      return false;
    }
  }
  pass.capacity = static_cast<size_t>(std::max(len[0], len[1])) + kSlack;
  const bool prefixed = sig::has_array_prefix(p);
  const int64_t per = (p.flags & kFlagMatrix3) ? 3 : 1;
  for (int phase = 0; phase < 2; ++phase) {
    Value &v = phase == 0 ? m.before : m.after;
    if (!prefixed) { // StringArray, ArgvArray: one element holding the strings
      Element e = element(i, len[phase], phase);
      v.elements.push_back(e);
      continue;
    }
    if (pass.null_pointer || pass.status_ignore) {
      v.null = true;
      continue;
    }
    for (int64_t k = 0; k < len[phase] * per; ++k)
      v.elements.push_back(element(i, k, phase));
  }
  return true;
}

// Element k of parameter i, before (phase 0) or after (phase 1) the call. For
// StringArray and ArgvArray, k is the number of strings.
Element SyntheticCall::element(int i, int64_t k, int phase) {
  const ParamInfo &p = info(i);
  const Passing &pass = passing_[static_cast<size_t>(i)];
  const bool several = case_ == Case::Several, empty = case_ == Case::Empty,
             null = case_ == Case::Null, one = case_ == Case::One;
  const int64_t salt = 10 * (i + 1) + k;
  Element e;
  if (p.flags & kFlagMatrix3) { // rows (first, last, stride): plain values
    const int64_t row = k / 3, col = k % 3;
    e.integer = col == 0 ? row : col == 1 ? 2 * row + 1 : (row % 2 ? -1 : 2);
    e.integer += phase * 100;
    return e;
  }
  switch (p.role) {
  case Role::Value:
  case Role::Offset: {
    if (driver_[static_cast<size_t>(i)]) {
      e.integer = driver_length(phase);
    } else if (driver_array_[static_cast<size_t>(i)]) {
      e.integer = several ? (k % 3) + 1 : one ? 1 : 0;
    } else {
      const int64_t v = ((i + k) % 2 ? -salt : salt) + (phase ? 1000 : 0);
      e.integer = several ? v : empty ? phase : null ? MPI_UNDEFINED : -v;
      if (one && p.role == Role::Offset)
        e.integer = (int64_t{1} << 40) + k; // a file offset beyond 32 bits
    }
    return e;
  }
  case Role::Address:
    if (p.ref >= 0) {
      // A window's target displacement. The pool's windows are not dynamic:
      // stored as itself, however large.
      e.integer = several ? salt + phase : empty ? 0 : null ? -1 : (int64_t{1} << 40) + k + phase;
    } else if (one || (several && k == 1)) {
      // One of the caller's addresses: an anchor plus an offset.
      e.sym = Sym::User;
      e.key = pool_.anchor_address();
      e.integer = 8 + k + 16 * phase;
    } else {
      // A relative displacement, or a value below 4 GiB: stored as itself.
      e.integer = several ? ((i + k) % 2 ? -salt : salt) + phase : empty ? phase : -1;
    }
    return e;
  case Role::Double:
    e.real = (several ? 0.5 + static_cast<double>(salt)
              : empty ? 0.0
              : null  ? -1.25
                      : 1e300) +
             (phase ? 100.0 : 0.0);
    return e;
  case Role::Tag:
    if (phase == 0)
      e.integer = several ? 100 + salt : empty ? 0 : MPI_ANY_TAG;
    else
      e.integer = several ? 200 + salt : empty ? 1 : null ? MPI_ANY_TAG : 7;
    return e;
  case Role::Rank:
    if (root_[static_cast<size_t>(i)])
      e.integer = several || empty ? 0 : null ? MPI_ROOT : 1; // the caller is the root, or not
    else if (phase == 0)
      e.integer = several ? (i + k) % 3
                  : empty ? MPI_PROC_NULL
                  : null  ? (k % 2 ? MPI_UNDEFINED : MPI_ANY_SOURCE)
                          : 0;
    else
      e.integer = several ? (i + k + 1) % 3 : empty ? MPI_UNDEFINED : null ? MPI_PROC_NULL : 0;
    return e;
  case Role::Handle:
    return handle_element(i, k, phase);
  case Role::Buffer:
    e.sym = several ? Sym::User : empty ? Sym::InPlace : null ? Sym::Null : Sym::Bottom;
    if (e.sym == Sym::User)
      e.key = pool_.buffer_address(i);
    if (e.sym == Sym::Bottom && MPI_BOTTOM == nullptr)
      e.sym = Sym::Null; // in both MPIs MPI_BOTTOM is NULL: one code, "NULL"
    return e;
  case Role::Pointer: {
    const bool out_before = phase == 0 && p.dir == Direction::Out;
    if (null || out_before || (empty && phase == 1)) {
      e.sym = Sym::Null; // a NULL pointer, or MPI stored NULL
    } else {
      e.sym = Sym::User;
      e.key = pool_.pointer_address(i + (empty ? 8 : one ? 4 : 0));
    }
    return e;
  }
  case Role::Opaque: // by value (an enum such as MPI_T_cb_safety), never "NULL"
    e.integer = null && (p.flags & kFlagPointer) ? 0 : 1;
    return e;
  case Role::String:
    e.present = !pass.null_pointer;
    if (phase == 0)
      e.text = several ? "s" + std::to_string(i) : one ? std::string("a b\n\x01\xff\"\\") : "";
    else
      e.text = several ? "out" + std::to_string(i) : one ? "z" : "";
    return e;
  case Role::StringArray:
    e.present = !pass.null_pointer;
    for (int64_t s = 0; e.present && s < k; ++s) {
      Element str;
      str.present = true;
      str.text = "a" + std::to_string(s);
      e.items.push_back(str);
    }
    return e;
  case Role::ArgvArray:
    e.present = !pass.null_pointer;
    for (int64_t s = 0; e.present && s < k; ++s) {
      Element argv;
      argv.present = !(several && s == 1); // MPI_ARGV_NULL for one command
      for (int w = 0; argv.present && w < 2; ++w) {
        Element str;
        str.present = true;
        str.text = (w ? "w" : "v") + std::to_string(s);
        argv.items.push_back(str);
      }
      e.items.push_back(argv);
    }
    return e;
  case Role::Callback:
    e.sym = null ? Sym::Null : Sym::User;
    e.key = null ? 0 : user_callback(static_cast<int>(i) + (one ? 1 : 0));
    return e; // Case::Empty: predefined where the type has one (callback_arg)
  case Role::Status:
    e.present = !pass.null_pointer && !pass.status_ignore;
    e.key = pass.status_ignore ? 1 : 0;
    e.source = 0; // the caller: the only rank of a singleton's communicators
    e.tag = several ? 5 + phase * 4 : 3 + phase;
    // Counts travel at full width: one set holds more than 2^31 bytes.
    e.count = several ? 12 + 8 * phase : one ? (int64_t{3} << 30) + 8 * phase : 8 * phase;
    return e;
  default:
    return e;
  }
}

Element SyntheticCall::handle_element(int i, int64_t k, int phase) {
  const ParamInfo &p = info(i);
  const HandleKind kind = p.handle_kind;
  const int j = same_kind_[static_cast<size_t>(i)] + static_cast<int>(k);
  const bool several = case_ == Case::Several, empty = case_ == Case::Empty,
             null = case_ == Case::Null;
  const CommShape shape = shape_[static_cast<size_t>(i)];
  switch (p.action) {
  case HandleAction::Create:
    if (phase == 0)
      return pool_.null(kind); // not read: an out value
    return several || null ? pool_.fresh(kind)
           : empty         ? pool_.predefined(kind, j)
                           : pool_.null(kind);
  case HandleAction::Free:
    if (phase == 1)
      return pool_.null(kind); // MPI sets a freed handle to null
    return empty ? pool_.predefined(kind, j) : pool_.fresh(kind);
  default:
    break;
  }
  if (p.dir == Direction::Out) {
    if (phase == 0)
      return pool_.null(kind);
    return several ? pool_.user(kind, j, shape)
           : empty ? pool_.predefined(kind, j)
                   : pool_.null(kind);
  }
  if (phase == 1 && kind == HandleKind::Request && case_ == Case::One)
    return pool_.null(kind); // completed and freed by MPI
  if (phase == 1)
    return model_.params[static_cast<size_t>(i)].before.elements.at(static_cast<size_t>(k));
  return several ? pool_.user(kind, j, shape)
         : empty ? pool_.predefined(kind, j)
         : null  ? pool_.null(kind)
                 : pool_.user(kind, j + 1, shape);
}

// Where each rank is resolved: the caller's rank (and grid) in the Rank
// parameter's communicator, group or window; a status's source in the first
// communicator argument's, else in MPI_COMM_WORLD's.
void SyntheticCall::resolve_bases() {
  model_.status_base = pool_.base(HandleKind::Comm, rt::handle_key(MPI_COMM_WORLD));
  bool first = true;
  for (int i = 0; i < f_.nparams; ++i) {
    const ParamInfo &p = info(i);
    if (first && p.role == Role::Handle && p.handle_kind == HandleKind::Comm &&
        !(p.flags & kFlagPointer)) {
      model_.status_base = pool_.base(HandleKind::Comm, before(i).key);
      first = false;
    }
    if (p.role != Role::Rank || p.ref < 0)
      continue;
    const ParamInfo &r = info(p.ref);
    if (r.role == Role::Handle && !(r.flags & kFlagPointer))
      model_.params[static_cast<size_t>(i)].base = pool_.base(r.handle_kind, before(p.ref).key);
  }
}

// Arrays and buffers significant only at the root are stored as absent
// elsewhere: whether the caller is the root is its rank in the call's first
// communicator (every communicator here has one process: rank 0). An out
// value MPI writes only when the call's flag is true is absent when it is
// false.
void SyntheticCall::mark_absent() {
  for (int i = 0; i < f_.nparams; ++i) {
    const ParamInfo &p = info(i);
    if (!(p.flags & kFlagWhenFlag) || p.ref < 0)
      continue;
    const Value &flag = model_.params[static_cast<size_t>(p.ref)].after;
    if (flag.null || flag.elements.empty() || flag.elements[0].integer == 0)
      model_.params[static_cast<size_t>(i)].absent = true;
  }
  int comm = -1;
  for (int i = 0; i < f_.nparams && comm < 0; ++i)
    if (info(i).role == Role::Handle && info(i).handle_kind == HandleKind::Comm &&
        !(info(i).flags & kFlagPointer))
      comm = i;
  for (int i = 0; i < f_.nparams; ++i) {
    const ParamInfo &p = info(i);
    if (!(p.flags & kFlagRootOnly) || p.ref3 < 0)
      continue;
    const int64_t root = before(p.ref3).integer;
    bool is_root = true;
    if (comm >= 0 && before(comm).sym != Sym::Null) {
      const RankBase b = pool_.base(HandleKind::Comm, before(comm).key);
      is_root = root == b.rank;
    }
    if (!is_root)
      model_.params[static_cast<size_t>(i)].absent = true;
  }
}

void SyntheticCall::play() {
  for (auto &w : writebacks_)
    w();
}

uint64_t SyntheticCall::address(const Element &e) {
  switch (e.sym) {
  case Sym::InPlace:
    return reinterpret_cast<uintptr_t>(MPI_IN_PLACE);
  case Sym::Bottom:
    return reinterpret_cast<uintptr_t>(MPI_BOTTOM);
  case Sym::User:
  case Sym::Predefined:
    return e.key;
  default:
    return 0;
  }
}

char *SyntheticCall::string_storage(const Element &e, size_t capacity) {
  char *s = alloc<char>(std::max(capacity, e.text.size() + 1));
  std::memcpy(s, e.text.data(), e.text.size());
  return s;
}

char **SyntheticCall::string_array_storage(const Element &e) {
  char **a = alloc<char *>(e.items.size() + 1); // NULL-terminated
  for (size_t k = 0; k < e.items.size(); ++k)
    a[k] = e.items[k].present ? string_storage(e.items[k], 0) : nullptr;
  return a;
}

void SyntheticCall::set_status(MPI_Status &st, const Element &e) const {
  Untraced untraced;
  st.MPI_SOURCE = e.source;
  st.MPI_TAG = e.tag;
  st.MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements_x(&st, MPI_BYTE, static_cast<MPI_Count>(e.count));
  PMPI_Status_set_cancelled(&st, 0);
}

} // namespace pilgrim::enctest
