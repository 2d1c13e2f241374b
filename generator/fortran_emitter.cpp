// The Fortran entry points. Each converts its Fortran arguments to C by a rule
// chosen from the parameter's role and C type (the table in `plan` below;
// nothing here names a function), runs the C wrapper's body with its own
// return address as the site (pilgrim_site_<name>, which records the call
// exactly as a C program's and calls PMPI), converts the outputs back and
// sets ierr. The MPI's own binding is not called.
#include "fortran_emitter.h"
#include "fortran_forwarding.h"
#include "fortran_plan.h"
#include "fortran_site_pass.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace pilgrim::gen {

bool read_fortran_symbols(const std::string &path, FortranLibrary &out, std::string &error) {
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot be read";
    return false;
  }
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string t; words >> t;)
      w.push_back(t);
    if (w.size() < 2)
      continue; // "lib.so:" headers and blank lines
    const std::string &type = w[w.size() - 2], &name = w.back();
    if (type == "U" || type == "w" || type == "v")
      out.imported.insert(name);
    else if (type.size() == 1)
      out.defined.insert(name);
  }
  return true;
}

namespace {

const char *kNs = "::pilgrim::rt::fortran::";
constexpr int kStackElements = 32; // handles or statuses held on the stack

// One function's entry point, planned parameter by parameter.
class EntryPlan : public FortranPlan {
public:
  using FortranPlan::FortranPlan;

  // Whether the entry point calls the wrapper's pilgrim_site_<name> (all
  // but the variadic MPI_Pcontrol, a region marker rather than a record).
  bool site_entry() const { return !f_.header->variadic; }

  void emit(const std::string &symbol, const std::vector<std::string> &aliases,
            std::ostream &out) const {
    // MPI_PCONTROL(LEVEL), the variadic function, has no IERROR in Fortran.
    const bool has_ierr = !f_.header->variadic;
    std::string params = formals_;
    if (has_ierr)
      params += std::string(params.empty() ? "" : ", ") + "MPI_Fint *ierr";
    // A hidden length is read as an int, as the MPI's own bindings declare
    // it: gfortran passes a size_t, but Open MPI's mpi_f08 module passes a C
    // int by value (whose register's upper half is undefined).
    for (const auto &l : lengths_)
      params += ", int " + l;
    const HeaderFunction &h = *f_.header;
    out << "// " << h.name << " (id " << f_.id() << ")\n";
    // The application's call site is this entry point's return address, not
    // the C wrapper's (runtime/sites/call_sites.h): passed to the wrapper's body
    // as an argument, or for MPI_Pcontrol kept in the thread's state.
    if (site_entry()) {
      std::string decl;
      for (size_t i = 0; i < h.params.size(); ++i)
        decl += ", " + h.params[i].declare(side(i).name);
      out << "extern \"C\" int pilgrim_site_" << h.name << "(const void *" << decl
          << ") __attribute__((visibility(\"hidden\")));\n";
    }
    out << "extern \"C\" void " << symbol << "(" << params << ") {\n"
        << before_.str() << arrays_.str();
    if (site_entry())
      out << "  int rc_ = pilgrim_site_" << h.name << "(__builtin_return_address(0)"
          << (actuals_.empty() ? "" : ", ") << actuals_ << ");\n";
    else
      out << "  " << kNs << "pass_site(__builtin_return_address(0));\n"
          << "  int rc_ = " << h.name << "(" << actuals_ << ");\n";
    if (!after_.str().empty())
      out << "  if (rc_ == MPI_SUCCESS || rc_ == MPI_ERR_IN_STATUS) {\n" << after_.str() << "  }\n";
    out << (has_ierr ? "  if (ierr)\n    *ierr = rc_;\n}\n" : "  (void)rc_;\n}\n");
    emit_fortran_aliases(symbol, params, aliases, out);
  }

private:
  int index_of(const std::string &n) const { return f_.sidecar->param_index(n); }

  void formal(const std::string &decl) { formals_ += (formals_.empty() ? "" : ", ") + decl; }
  void actual(const std::string &expr) { actuals_ += (actuals_.empty() ? "" : ", ") + expr; }

  // A length of parameter i's array as C++ over the converted arguments.
  std::string length_of(size_t i) const {
    return length_to_cxx(
        *side(i).len,
        [&](const std::string &q) {
          int k = index_of(q);
          if (side(k).role == Role::Handle && head(k).base == CType::Handle)
            return "c_" + q; // converted before any array (scalars come first)
          if (head(k).pointer_depth == 0)
            return "static_cast<int64_t>(*" + q + ")";
          return "::pilgrim::rt::len_deref(" + q + ")";
        },
        [&](const std::string &q) {
          int k = index_of(q);
          return side(k).role == Role::Handle && head(k).base == CType::Handle ? "c_" + q : q;
        });
  }
  // An array's size before the call: its length, or where that uses an out
  // value (Waitsome's outcount), the length of the call's request array.
  bool capacity_of(size_t i, std::string &cap) {
    if (!(f_.params[i].flags & kFlagLengthAfter)) {
      cap = length_of(i);
      return true;
    }
    for (size_t k = 0; k < f_.params.size(); ++k)
      if (side(k).role == Role::Handle && side(k).kind == HandleKind::Request && side(k).len &&
          !(f_.params[k].flags & kFlagLengthAfter)) {
        cap = length_of(k);
        return true;
      }
    return fail(side(i).name + ": its length is known only after the call");
  }
  // Parameters named by a status's `index`: 0-based in C, 1-based in Fortran.
  bool is_index(const std::string &n) const {
    for (const auto &p : f_.params)
      if (p.sidecar->role == Role::Status && p.sidecar->index == n)
        return true;
    return false;
  }

  bool param(size_t i) override {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name;
    const std::string c = "c_" + n;
    const bool out = s.dir != Direction::In;
    switch (s.role) {
    case Role::Opaque: // the command line of MPI_Init: Fortran has none
      actual(h.pointer_depth == 0 ? "0" : "nullptr");
      if (!started_) { // what MPICH's binding of MPI_Init does first
        before_ << "  " << kNs << "fortran_start();\n";
        started_ = true;
      }
      return true;
    case Role::Buffer:
      formal(h.declare(n));
      actual(std::string(kNs) + "buffer(" + n + ")");
      return true;
    case Role::String: {
      if (h.base != CType::Char || h.pointer_depth != 1)
        return fail(n + ": a string of type " + h.type);
      formal("char *" + n);
      lengths_.push_back(n + "_len");
      before_ << "  " << kNs << (out ? "OutString " : "InString ") << c << "(" << n << ", " << n
              << "_len);\n";
      actual(c + ".get()");
      // A string MPI writes only when its out flag says so (MPI_Info_get)
      // keeps the program's characters otherwise.
      if (out)
        after_ << "    " << (s.flag.empty() ? "" : "if (*" + s.flag + ") ") << c
               << ".copy_back();\n";
      return true;
    }
    case Role::Status:
      return status(i);
    case Role::Handle:
    case Role::Value:
    case Role::Rank:
    case Role::Tag:
    case Role::Offset:
    case Role::Address:
      return handle_or_integer(i);
    case Role::Pointer:
      // An address the Fortran binding does not return (MPI_Buffer_detach's):
      // a local receives it, as in the MPI's own binding.
      if (s.fortran_local) {
        formal(h.declare(n));
        before_ << "  void *" << c << " = " << n << ";\n";
        actual("&" + c);
        return true;
      }
      // A choice argument in Fortran: the variable's address is C's pointer.
      if (!s.fortran_choice)
        return fail(n + ": a pointer (Fortran passes it with other semantics)");
      formal(h.declare(n));
      actual(n);
      return true;
    case Role::Double:
      if (h.pointer_depth != 0)
        return fail(n + ": a double array");
      formal("const double *" + n);
      actual("*" + n);
      return true;
    default:
      return fail(n + ": a " + std::string(role_name(s.role)) +
                  " (Fortran passes it with other semantics)");
    }
  }

  bool integer(size_t i) override {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name;
    if (h.pointer_depth == 0) {
      formal("const " + h.base_name + " *" + n);
      actual("*" + n);
      return true;
    }
    // Fortran INTEGERs of the kind MPI asks for are the C types: arrays and
    // out values go as they are, INTEGER arrays through the sentinels.
    formal(h.declare(n));
    if ((h.base == CType::Int || h.base == CType::Fint) && s.len && !h.is_matrix3)
      actual(std::string(kNs) + "int_array(" + n + ")");
    else
      actual(n);
    if (s.dir != Direction::In && is_index(n))
      after_ << "    " << kNs << "one_based(" << n << ", " << (s.len ? length_of(i) : "1")
             << ");\n";
    return true;
  }

  bool handle(size_t i) override {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name, c = "c_" + n;
    HandleNames hn;
    if (!handle_names(s.kind, hn))
      return fail(n + ": a handle without f2c");
    const std::string f2c = std::string("PMPI_") + hn.conv + "_f2c",
                      c2f = std::string("PMPI_") + hn.conv + "_c2f";
    const bool in = s.dir != Direction::Out, out = s.dir != Direction::In;
    if (h.pointer_depth == 0) {
      formal("const MPI_Fint *" + n);
      before_ << "  " << h.base_name << " " << c << " = " << f2c << "(*" << n << ");\n";
      actual(c);
      return true;
    }
    formal(std::string(out ? "" : "const ") + "MPI_Fint *" + n);
    if (!s.len) {
      before_ << "  " << h.base_name << " " << c << " = "
              << (in ? f2c + "(*" + n + ")" : std::string(hn.null)) << ";\n";
      actual("&" + c);
      if (out)
        after_ << "    *" << n << " = " << c2f << "(" << c << ");\n";
      return true;
    }
    if (f_.params[i].flags & kFlagRootOnly)
      return fail(n + ": a handle array significant at the root only");
    std::string cap;
    if (!capacity_of(i, cap))
      return false;
    arrays_ << "  const int64_t " << c << "_n = " << cap << ";\n"
            << "  " << kNs << "Array<" << h.base_name << ", " << kStackElements << "> " << c << "("
            << c << "_n);\n";
    if (in)
      arrays_ << "  for (int64_t k = 0; k < " << c << "_n; ++k)\n"
              << "    " << c << "[k] = " << f2c << "(" << n << "[k]);\n";
    actual(c + ".get()");
    if (out)
      after_ << "    for (int64_t k = 0, n = " << length_of(i) << "; k < n; ++k)\n"
             << "      " << n << "[k] = " << c2f << "(" << c << "[k]);\n";
    return true;
  }

  bool status(size_t i) {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name, c = "c_" + n;
    if (h.base != CType::Status || h.pointer_depth != 1)
      return fail(n + ": a status of type " + h.type);
    const bool in = s.dir != Direction::Out, out = s.dir != Direction::In;
    formal(std::string(out ? "" : "const ") + "MPI_Fint *" + n);
    if (!s.len) {
      before_ << "  MPI_Status " << c << "_;\n"
              << "  MPI_Status *" << c << " = " << kNs << "status_ignored(" << n
              << ") ? MPI_STATUS_IGNORE : &" << c << "_;\n";
      if (in)
        before_ << "  if (" << c << " != MPI_STATUS_IGNORE)\n"
                << "    PMPI_Status_f2c(" << n << ", " << c << ");\n";
      actual(c);
      if (out)
        after_ << "    if (" << c << " != MPI_STATUS_IGNORE)\n"
               << "      PMPI_Status_c2f(" << c << ", " << n << ");\n";
      return true;
    }
    if (in)
      return fail(n + ": an array of statuses read by MPI");
    std::string cap;
    if (!capacity_of(i, cap))
      return false;
    arrays_ << "  " << kNs << "Array<MPI_Status, " << kStackElements << "> " << c << "_(" << cap
            << ");\n"
            << "  MPI_Status *" << c << " = " << kNs << "statuses_ignored(" << n
            << ") ? MPI_STATUSES_IGNORE : " << c << "_.get();\n";
    actual(c);
    after_ << "    if (" << c << " != MPI_STATUSES_IGNORE)\n"
           << "      for (int64_t k = 0, n = " << length_of(i) << "; k < n; ++k)\n"
           << "        PMPI_Status_c2f(" << c << " + k, " << n << " + k * " << kNs
           << "kStatusSize);\n";
    return true;
  }

  std::string formals_, actuals_;
  std::vector<std::string> lengths_;
  bool started_ = false;
  // Scalars are converted first, so that arrays' lengths can use them.
  std::ostringstream before_, arrays_, after_;
};

// The names under which a Fortran library may export `name`'s binding: the
// four manglings of compilers (mpi_send, mpi_send_, mpi_send__, MPI_SEND),
// Open MPI's name for the same code, through which its mpi_f08 module calls
// it (ompi_send_f), and the same for Open MPI's forms taking TYPE(C_PTR)
// where C takes an address MPI writes (mpi_alloc_mem_cptr_: the variable
// holds the address either way).
std::vector<std::string> fortran_names(const std::string &name) {
  std::string lower = name, upper = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  std::vector<std::string> names;
  for (const std::string suffix : {"", "_cptr"}) {
    std::string l = lower + suffix, u = upper;
    for (char ch : suffix)
      u += static_cast<char>(::toupper(ch));
    for (const auto &n : {l, l + "_", l + "__", u, "ompi_" + l.substr(4) + "_f"})
      names.push_back(n);
  }
  return names;
}

// The Fortran library's PMPI name of `name`'s binding (pmpi_op_create_), or
// "" if it exports none.
std::string pmpi_name(const std::string &name, const FortranLibrary &lib) {
  std::string lower = "p" + name, upper = "P" + name;
  std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  for (const auto &n : {lower + "_", lower, lower + "__", upper})
    if (lib.defined.count(n))
      return n;
  return "";
}

// A callback whose invocations the runtime records: MPI must get a
// trampoline of the Fortran signature, so the C function cannot stand in.
bool records_callbacks(const JoinedFunction &f) {
  for (const auto &p : f.params)
    if (p.sidecar->record)
      return true;
  return false;
}

} // namespace

void emit_fortran_entries(const JoinResult &joined, const FortranLibrary &lib, std::ostream &out,
                          FortranReport &report) {
  out << "// Generated by pilgrim-gen-wrappers. Do not edit.\n"
         "// The Fortran entry points: each converts its arguments to C, runs the C\n"
         "// wrapper's body (which records it as a C program's call), converts the\n"
         "// outputs back and sets ierr (generator/fortran_emitter.cpp).\n"
         "#include <mpi.h>\n"
         "#include \"call_inline.h\"\n"
         "#include \"callback_records.h\"\n"
         "#include \"fortran_glue.h\"\n"
         "#include \"window_registry.h\"\n\n"
         "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n\n";
  for (const auto &f : joined.wrapped) {
    std::vector<std::string> aliases;
    for (const auto &a : fortran_names(f.name()))
      if (lib.defined.count(a))
        aliases.push_back(a);
    if (aliases.empty())
      continue; // no Fortran binding (MPI_Comm_f2c, the large-count forms)
    const bool recorded = records_callbacks(f);
    std::string line = f.name() + ":";
    for (const auto &a : aliases)
      line += " " + a;
    // The C wrapper's body, after converting the arguments, in place of the
    // MPI's binding (both MPIs).
    EntryPlan plan(f);
    if (!recorded && plan.plan()) {
      plan.emit("pilgrim_fortran_" + f.name(), aliases, out);
      if (plan.site_entry())
        report.site_entries.insert(f.name());
      report.entries.push_back(line);
      continue;
    }
    const std::string pmpi = pmpi_name(f.name(), lib);
    std::string why = recorded ? "its callbacks are recorded" : plan.why();
    if (lib.imported.count(f.name()) && !recorded) {
      // No conversion rule, but the binding calls the C function (MPICH's),
      // whose wrapper records the call: an entry point passes the
      // application's call site on where the binding has a PMPI name.
      std::string pass_why;
      if (!pmpi.empty() && emit_fortran_site_pass(f, aliases, pmpi, out, pass_why))
        line += " (" + why + "; sites through " + pmpi + ")";
      else
        line += " (" + why + "; without sites: " +
                (pmpi.empty() ? "no PMPI name of its Fortran binding" : pass_why) + ")";
      report.c_called.push_back(line);
      continue;
    }
    if (pmpi.empty()) {
      report.left.emplace_back(f.name(), why + "; no PMPI name of its Fortran binding");
      continue;
    }
    std::string fwd_why;
    if (!emit_fortran_forwarding(f, aliases, pmpi, out, fwd_why)) {
      report.left.emplace_back(f.name(), why + "; " + fwd_why);
      continue;
    }
    report.forwarded.push_back(line + " (through " + pmpi + ")");
  }
}

void emit_fortran_coverage(const std::string &symbols_path, const FortranReport &report,
                           std::ostream &out) {
  out << "\nFortran (" << (symbols_path.empty() ? "no Fortran library" : symbols_path) << ")\n"
      << "  entry points: " << report.entries.size() << "\n"
      << "  forwarded to the C function by the MPI's Fortran library (traced there): "
      << report.c_called.size() << "\n"
      << "  entry points around the MPI's Fortran binding (recorded as the C call): "
      << report.forwarded.size() << "\n"
      << "  left to the MPI's Fortran library (not traced from Fortran): " << report.left.size()
      << "\n";
  for (const auto &e : report.entries)
    out << "    entry " << e << "\n";
  for (const auto &e : report.c_called)
    out << "    c " << e << "\n";
  for (const auto &e : report.forwarded)
    out << "    around " << e << "\n";
  for (const auto &[name, why] : report.left)
    out << "    left " << name << ": " << why << "\n";
}

} // namespace pilgrim::gen
