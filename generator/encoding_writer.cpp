// The encoding statements of one function's wrapper: each parameter's role
// picks exactly one call of the runtime's per-role encoding interface
// (runtime/call.h); nothing here is specific to a function name. The PMPI
// wrappers and the encoding driver of test/encoding run the same statements.
#include "encoding_writer.h"

namespace pilgrim::gen {
namespace {

const char *kind_cxx(HandleKind k) {
  static const char *names[] = {"None",    "Comm",       "Group",  "Datatype", "Op",
                                "Info",    "Errhandler", "File",   "Win",      "Request",
                                "Message", "Session",    "Keyval", "Fd",       "Stream"};
  return names[static_cast<int>(k)];
}

} // namespace

class EncodingWriter::Impl {
public:
  Impl(const JoinedFunction &f, std::ostream &out) : f_(f), out_(out) {}

  const std::string &name(size_t i) const { return f_.params[i].sidecar->name; }
  const SidecarParam &side(size_t i) const { return *f_.params[i].sidecar; }
  const HeaderParam &head(size_t i) const { return *f_.params[i].header; }
  bool is_param(size_t i) const { return f_.params[i].header != nullptr; }

  int find_comm() const {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == Role::Handle && side(i).kind == HandleKind::Comm &&
          head(i).pointer_depth == 0)
        return static_cast<int>(i);
    return -1;
  }
  // The last by-value rank/tag parameter: the peer of a point-to-point call.
  int find_last(Role role) const {
    int found = -1;
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == role && head(i).pointer_depth == 0)
        found = static_cast<int>(i);
    return found;
  }
  int find_request_use() const {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == Role::Handle && side(i).kind == HandleKind::Request &&
          side(i).action != HandleAction::Create)
        return static_cast<int>(i);
    return -1;
  }
  bool has_out_buffer() const {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == Role::Buffer && side(i).dir != Direction::In)
        return true;
    return false;
  }

  std::string rank_ctx(size_t i) const {
    int ref = f_.params[i].ref;
    const SidecarParam &r = side(ref);
    if (r.role == Role::Handle && head(ref).pointer_depth == 0) {
      if (r.kind == HandleKind::Comm)
        return "::pilgrim::rt::comm_ctx(" + r.name + ")";
      if (r.kind == HandleKind::Group)
        return "::pilgrim::rt::group_ctx(" + r.name + ")";
      if (r.kind == HandleKind::Win)
        return "::pilgrim::rt::win_ctx(" + r.name + ")";
    }
    return "::pilgrim::rt::RankCtx{}";
  }

  std::string length(size_t i) const {
    const JoinedParam &p = f_.params[i];
    std::string n;
    if (!side(i).len)
      n = "1";
    else
      n = length_to_cxx(
          *side(i).len,
          [&](const std::string &q) {
            int k = f_.sidecar->param_index(q);
            if (head(k).pointer_depth == 0)
              return "static_cast<int64_t>(" + q + ")";
            return "::pilgrim::rt::len_deref(" + q + ")";
          },
          [&](const std::string &q) { return q; });
    if (p.flags & kFlagRootOnly) {
      int comm = find_comm();
      std::string c = comm >= 0 ? name(comm) : std::string("MPI_COMM_NULL");
      n = "(::pilgrim::rt::is_root(" + name(p.ref3) + ", " + c + ") ? " + n + " : int64_t{-1})";
    }
    return n;
  }

  std::string root_guard(size_t i, const std::string &value, const std::string &absent) const {
    const JoinedParam &p = f_.params[i];
    if (!(p.flags & kFlagRootOnly))
      return value;
    int comm = find_comm();
    std::string c = comm >= 0 ? name(comm) : std::string("MPI_COMM_NULL");
    return "(::pilgrim::rt::is_root(" + name(p.ref3) + ", " + c + ") ? " + value + " : " + absent +
           ")";
  }

  // Encoding of a parameter whose elements are values (by value, pointer or array).
  void element_line(size_t i, bool after) {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name;
    bool scalar = h.pointer_depth == 0;
    std::string len = scalar ? "" : length(i);
    // int x[][3] rows (first, last, stride of MPI_Group_range_incl/excl):
    // plain values whatever the role, since a stride is not a rank
    // (docs/FORMAT.md §8.1).
    if (h.is_matrix3) {
      line("c_.matrix3(" + n + ", " + len + ");"); // len counts rows of 3
      return;
    }
    switch (s.role) {
    case Role::Offset:
      // Stride x world rank + base: stride 0 here, fitted to the rank at
      // MPI_Finalize (runtime/merge/rank_offsets.h; docs/FORMAT.md §8.3).
      if (scalar)
        line("c_.file_offset(" + n + ");");
      else
        line("c_.file_offsets(" + n + ", " + len + ");");
      return;
    case Role::Value:
      if (scalar)
        line("c_.value(" + n + ");");
      else
        line("c_.values(" + n + ", " + len + ");");
      return;
    case Role::Address:
      // A window's target displacement (ref: the window, ref2: the target
      // rank), else a displacement that may hold the caller's own address.
      if (f_.params[i].ref >= 0 && f_.params[i].ref2 >= 0 && scalar)
        line("c_.target_disp(" + n + ", " + name(f_.params[i].ref) + ", " +
             name(f_.params[i].ref2) + ");");
      else if (scalar)
        line("c_.address(" + n + ");");
      else
        line("c_.addresses(" + n + ", " + len + ");");
      return;
    case Role::Double:
      line(scalar ? "c_.dbl(" + n + ");" : "c_.dbls(" + n + ", " + len + ");");
      return;
    case Role::Tag:
      line(scalar ? "c_.tag(" + n + ");" : "c_.tags(" + n + ", " + len + ");");
      return;
    case Role::Rank: {
      std::string rel = (f_.params[i].flags & kFlagRelative) ? "true" : "false";
      if (scalar)
        line("c_.rank(" + n + ", " + rank_ctx(i) + ", " + rel + ");");
      else
        line("c_.ranks(" + n + ", " + len + ", " + rank_ctx(i) + ", " + rel + ");");
      return;
    }
    case Role::Handle: {
      std::string k = std::string("::pilgrim::HandleKind::") + kind_cxx(s.kind);
      if (s.kind == HandleKind::Request) {
        if (scalar)
          line("c_.request(" + n + ");"); // by value: one element, no prefix
        else
          line(std::string(after ? "c_.requests_out(" : "c_.requests_in(") + n + ", " + len + ");");
        return;
      }
      // A window's cached rank (win_ctx) is dropped when the window is freed
      // and when a handle value, perhaps recycled, comes back from a create.
      if (after && s.action == HandleAction::Create) {
        // Communicators, windows and files get ids their members agree on,
        // over the call's communicator argument where the object needs it.
        if (s.kind == HandleKind::Comm || s.kind == HandleKind::Win || s.kind == HandleKind::File) {
          int comm = find_comm();
          line("c_.handles_create(" + k + ", " + n + ", " + len + ", " +
               (comm >= 0 ? name(comm) : std::string("MPI_COMM_NULL")) + ");");
        } else {
          line("c_.handles_create(" + k + ", " + n + ", " + len + ");");
        }
        if (s.kind == HandleKind::Win)
          line("::pilgrim::rt::forget_windows(" + n + ", " + len + ");");
      } else if (after && s.action == HandleAction::Free) {
        line("c_.handle_free(" + k + ", " + n + ", before_" + n + "_);");
        if (s.kind == HandleKind::Win)
          line("::pilgrim::rt::forget_windows(&before_" + n + "_, 1);");
      } else if (scalar) {
        line("c_.handle(" + k + ", " + n + ");");
      } else {
        line("c_.handles(" + k + ", " + n + ", " + len + ");");
      }
      return;
    }
    default:
      return;
    }
  }

  int find_file() const {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == Role::Handle && side(i).kind == HandleKind::File &&
          head(i).pointer_depth == 0)
        return static_cast<int>(i);
    return -1;
  }

  std::string status_ctx(size_t i) const {
    // A status the application passes in (MPI_Get_count, MPI_Status_set_*):
    // the call reads only its count; its source is a rank in a communicator
    // the call does not name, so storing it would make ranks differ.
    if (side(i).dir != Direction::Out)
      return "::pilgrim::rt::StatusCtx::count_only()";
    std::string ctx = "::pilgrim::rt::StatusCtx::none()";
    int req = find_request_use();
    int src = find_last(Role::Rank), tag = find_last(Role::Tag), comm = find_comm();
    if (find_file() >= 0 && req < 0) {
      // A file operation: MPI leaves the status's source and tag undefined.
      ctx = "::pilgrim::rt::StatusCtx::count_only()";
    } else if (req >= 0) {
      int idx = f_.params[i].ref;
      if (idx < 0)
        ctx = "::pilgrim::rt::StatusCtx::direct()";
      else if (side(idx).len)
        ctx = "::pilgrim::rt::StatusCtx::indexed(" + name(idx) + ")";
      else
        ctx = "::pilgrim::rt::StatusCtx::single(" + name(idx) + ")";
    } else if (src >= 0 && tag >= 0 && comm >= 0) {
      ctx = "::pilgrim::rt::StatusCtx::call(" + name(src) + ", " + name(tag) +
            ", ::pilgrim::rt::comm_ctx(" + name(comm) + "))";
    }
    if (!side(i).flag.empty())
      ctx += ".when(" + side(i).flag + ")";
    return ctx;
  }

  void value_line(size_t i, bool after) {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name;
    switch (s.role) {
    case Role::Varargs:
      return;
    case Role::Buffer:
      // A buffer sized in bytes (a window's memory, an attached buffer): the
      // runtime notes its extent.
      if (f_.params[i].ref >= 0 && f_.params[i].ref2 < 0 &&
          head(f_.params[i].ref).pointer_depth == 0)
        line("c_.buffer(" + root_guard(i, n, "nullptr") + ", ::pilgrim::rt::as_int64(" +
             name(f_.params[i].ref) + "));");
      else
        line("c_.buffer(" + root_guard(i, n, "nullptr") + ");");
      return;
    case Role::Pointer:
      if (!after && s.dir == Direction::Out)
        return;
      if (after && f_.params[i].ref >= 0) {
        // Memory MPI allocated, of `bytes` bytes (an in value or an out pointer).
        const size_t b = static_cast<size_t>(f_.params[i].ref);
        const std::string bytes = head(b).pointer_depth == 0
                                      ? "static_cast<int64_t>(" + name(b) + ")"
                                      : "::pilgrim::rt::len_deref(" + name(b) + ")";
        line("c_.memory_out(" + n + ", " + bytes + ");");
      } else if (after) {
        line("c_.pointer_out(" + n + ");");
      } else {
        line("c_.pointer(" + n + ");");
      }
      return;
    case Role::Opaque:
      line("c_.opaque(::pilgrim::rt::non_null(" + n + "));");
      return;
    case Role::String:
      line(after ? "c_.string_out(" + n + ", rc_);"
                 : "c_.string(" + root_guard(i, n, "nullptr") + ");");
      return;
    case Role::StringArray:
      line("c_.string_array(" + n + ", " + length(i) + ");");
      return;
    case Role::ArgvArray:
      line("c_.argv_array(" + n + ", " + length(i) + ");");
      return;
    case Role::Callback:
      line("c_.callback(::pilgrim::rt::function_address(" + n + "), \"" + h.base_name + "\");");
      return;
    case Role::Status:
      if (s.len)
        line("c_.statuses(" + n + ", " + length(i) + ", " + status_ctx(i) + ");");
      else
        line("c_.status(" + n + ", " + status_ctx(i) + ");");
      return;
    default:
      (void)h;
      element_line(i, after);
    }
  }

  void prologue() {
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i) && side(i).role == Role::Handle && side(i).action == HandleAction::Free &&
          side(i).kind != HandleKind::Request)
        line("const auto before_" + name(i) + "_ = ::pilgrim::rt::handle_before(" + name(i) + ");");
    for (size_t i = 0; i < f_.params.size(); ++i) {
      if (!is_param(i))
        continue;
      const SidecarParam &s = side(i);
      if (s.dir == Direction::In || s.dir == Direction::InOut || s.role == Role::Buffer)
        value_line(i, false);
    }
    for (size_t i = 0; i < f_.params.size(); ++i)
      if (is_param(i))
        keep_source_line(i);
  }

  // A status MPI may write a wildcard receive's sender into: where the
  // application passed MPI_STATUS_IGNORE, the tracer passes its own (call.h,
  // keep_source), so that the trace keeps the sender. Only statuses that
  // status_ctx resolves through the call's source or a completed request.
  void keep_source_line(size_t i) {
    const SidecarParam &s = side(i);
    if (s.role != Role::Status || s.dir != Direction::Out)
      return;
    const std::string &n = s.name;
    const int req = find_request_use(), src = find_last(Role::Rank), tag = find_last(Role::Tag),
              comm = find_comm();
    if (req >= 0 && find_file() < 0) {
      line(n + " = c_.keep_sources" + std::string(s.len ? "_array(" : "(") + n + ");");
    } else if (req < 0 && find_file() < 0 && src >= 0 && tag >= 0 && comm >= 0 && !s.len) {
      line(n + " = c_.keep_source(" + n + ", " + name(src) + ", " + name(tag) + ");");
    }
  }

  void epilogue() {
    int deferred = -1;
    for (size_t i = 0; i < f_.params.size(); ++i) {
      if (!is_param(i))
        continue;
      const SidecarParam &s = side(i);
      if (s.dir == Direction::In || s.role == Role::Buffer)
        continue;
      if (s.role == Role::Handle && s.kind == HandleKind::Request &&
          s.action == HandleAction::Create) {
        deferred = static_cast<int>(i);
        continue;
      }
      if (!s.flag.empty() && s.role != Role::Status) {
        // MPI writes it only when the flag is true: otherwise it is absent.
        line("if (::pilgrim::rt::flag_true(" + s.flag + ")) {");
        value_line(i, true);
        line("} else {");
        line("  c_.absent();");
        line("}");
        continue;
      }
      value_line(i, true);
    }
    if (deferred >= 0) {
      int src = find_last(Role::Rank), tag = find_last(Role::Tag), comm = find_comm();
      std::string info = "::pilgrim::rt::ReqInfo{}";
      if (find_file() >= 0)
        info = "::pilgrim::rt::ReqInfo::file()"; // MPI_File_i*: completions keep the count
      else if (src >= 0 && tag >= 0 && comm >= 0)
        info = "::pilgrim::rt::ReqInfo::p2p(" + name(src) + ", " + name(tag) +
               ", ::pilgrim::rt::comm_ctx(" + name(comm) + "), " +
               (has_out_buffer() ? "true" : "false") + ")";
      line("c_.request_create(" + name(deferred) + ", " + info + ");");
    }
  }

  void line(const std::string &s) { out_ << "  " << s << "\n"; }

  const JoinedFunction &f_;
  std::ostream &out_;
};

EncodingWriter::EncodingWriter(const JoinedFunction &f, std::ostream &out)
    : impl_(std::make_unique<Impl>(f, out)) {}
EncodingWriter::~EncodingWriter() = default;
void EncodingWriter::prologue() { impl_->prologue(); }
void EncodingWriter::epilogue() { impl_->epilogue(); }

} // namespace pilgrim::gen
