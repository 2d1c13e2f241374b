// The forwarding Fortran entry points (fortran_forwarding.h): the MPI's own
// Fortran binding runs, and the call is recorded as C's over C views of the
// Fortran arguments. Each view is chosen by the parameter's role and C type;
// nothing here names a function.
#include "fortran_forwarding.h"

#include "encoding_writer.h"
#include "fortran_plan.h"
#include "length_expression.h"

#include <sstream>

namespace pilgrim::gen {

namespace {

const char *kGlue = "::pilgrim::rt::fortran::";

// A view's declaration: the parameter's, an array as a pointer (it is
// initialised from the Fortran argument or a conversion).
std::string view_decl(const HeaderParam &h, const std::string &n) {
  std::string t = h.type;
  const size_t a = t.find("[]");
  if (a == std::string::npos)
    return h.declare(n);
  t.replace(a, 2, "*");
  return t + " " + n;
}

class ForwardPlan : public FortranPlan {
public:
  using FortranPlan::FortranPlan;

  void emit(const std::string &symbol, const std::vector<std::string> &aliases,
            const std::string &pmpi, std::ostream &out) const {
    const HeaderFunction &h = *f_.header;
    const std::string &formals = formals_, &types = types_, &passed = passed_,
                      &forwarded = forwarded_;
    std::string lens, len_types;
    for (const auto &l : lengths_) {
      lens += ", " + l;
      len_types += ", int";
    }
    const std::string sep = formals.empty() ? "" : ", ";
    // The binding is a weak reference: a program linked with libpilgrim but
    // not with the MPI's Fortran library (a C program) never calls it.
    out << "// " << h.name << " (id " << f_.id() << "): the MPI's Fortran binding runs\n"
        << "extern \"C\" void " << pmpi << "(" << types << sep << "MPI_Fint *" << len_types
        << ") __attribute__((weak));\n"
        << "extern \"C\" void " << symbol << "(" << formals << sep << "MPI_Fint *ierr";
    for (const auto &l : lengths_)
      out << ", int " << l;
    out << ") {\n"
        // The application called this entry point: its return address is
        // the call's site (README, "Call sites").
        << "  ::pilgrim::rt::Call c_(" << f_.id() << ", __builtin_return_address(0));\n"
        << "  if (!c_.active()) {\n"
        << "    " << pmpi << "(" << passed << sep << "ierr" << lens << ");\n"
        << "    return;\n"
        << "  }\n"
        << "  MPI_Fint ierr_ = MPI_SUCCESS;\n"
        << views_.str() << arrays_.str();
    EncodingWriter enc(f_, out);
    enc.prologue();
    out << "  c_.start();\n"
        << "  " << pmpi << "(" << forwarded << sep << "&ierr_" << lens << ");\n"
        << "  c_.stop();\n"
        << "  const int rc_ = ierr_;\n";
    if (!after_.str().empty())
      out << "  if (rc_ == MPI_SUCCESS) {\n" << after_.str() << "  }\n";
    enc.epilogue();
    out << "  c_.finish(::pilgrim::rt::as_int64(rc_));\n"
        << "  if (ierr)\n    *ierr = rc_;\n"
        << "}\n";
    emit_fortran_aliases(symbol, signature(), aliases, out);
  }

  // The formals of the entry point, for its aliases.
  std::string signature() const {
    std::string s = formals_ + (formals_.empty() ? "" : ", ") + "MPI_Fint *ierr";
    for (const auto &l : lengths_)
      s += ", int " + l;
    return s;
  }

private:
  // A Fortran argument `decl` (its type `type`), passed to the binding as
  // `forwarded` while recording and as itself otherwise.
  void formal(const std::string &type, const std::string &name, const std::string &forwarded) {
    const std::string sep = formals_.empty() ? "" : ", ";
    formals_ += sep + type + " " + name;
    types_ += sep + type;
    passed_ += sep + name;
    forwarded_ += sep + forwarded;
  }

  bool param(size_t i) override {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name, fn = "f_" + n;
    const bool out = s.dir != Direction::In;
    switch (s.role) {
    case Role::Buffer:
      formal("void *", fn, fn);
      views_ << "  " << view_decl(h, n) << " = " << kGlue << "buffer(" << fn << ");\n";
      return true;
    case Role::String:
      if (out || h.base != CType::Char || h.pointer_depth != 1)
        return fail(n + ": a string MPI writes");
      formal("char *", fn, fn);
      lengths_.push_back(fn + "_len");
      views_ << "  " << kGlue << "InString " << n << "_s(" << fn << ", " << fn << "_len);\n"
             << "  " << view_decl(h, n) << " = " << n << "_s.get();\n";
      return true;
    case Role::StringArray:
    case Role::ArgvArray: {
      // CHARACTER*(*) NAMES(*) (a count of them, or up to a blank one) and
      // ARRAY_OF_ARGV(COUNT, *): C's arrays of strings, trimmed, where
      // significant (the root's).
      formal("char *", fn, fn);
      lengths_.push_back(fn + "_len");
      const bool argvs = s.role == Role::ArgvArray;
      const std::string count = s.nullterm || !s.len ? "-1" : length_of(i);
      arrays_ << "  " << kGlue << (argvs ? "ArgvArrays " : "StringArray ") << n << "_s("
              << significant(i) << " ? " << fn << " : nullptr, " << fn << "_len, " << count
              << ");\n"
              << "  " << view_decl(h, n) << " = " << n << "_s.get();\n";
      return true;
    }
    case Role::Callback:
      formal("void *", fn,
             s.record ? "::pilgrim::rt::record_fortran_" + h.base_name + "(" + fn + ")" : fn);
      views_ << "  " << view_decl(h, n) << " = reinterpret_cast<" << h.base_name << " *>(" << fn
             << ");\n";
      return true;
    case Role::Pointer: {
      if (s.fortran_choice || s.fortran_local)
        return fail(n + ": a pointer the C entry points convert");
      // An INTEGER(KIND=MPI_ADDRESS_KIND) (INTEGER: fortran_int) whose value
      // is C's pointer; out: MPI writes it (an attribute, an address).
      const std::string ft = s.fortran_int ? "MPI_Fint *" : "MPI_Aint *";
      formal(ft, fn, fn);
      if (!out) {
        views_ << "  " << view_decl(h, n) << " = " << kGlue << "address_value(*" << fn << ");\n";
        return true;
      }
      views_ << "  void *" << n << "_v = nullptr;\n"
             << "  " << view_decl(h, n) << " = &" << n << "_v;\n";
      after_ << "    " << n << "_v = " << kGlue << "address_value(*" << fn << ");\n";
      return true;
    }
    case Role::Handle:
    case Role::Value:
    case Role::Rank:
    case Role::Tag:
    case Role::Offset:
    case Role::Address:
      return handle_or_integer(i);
    case Role::Double:
      if (h.pointer_depth != 0)
        return fail(n + ": a double array");
      formal("double *", fn, fn);
      views_ << "  const double " << n << " = *" << fn << ";\n";
      return true;
    default:
      return fail(n + ": a " + std::string(role_name(s.role)) + " without a C view");
    }
  }

  // Fortran INTEGERs of the kind MPI asks for are the C types: the view of
  // an array or out value is the Fortran variable itself.
  bool integer(size_t i) override {
    const HeaderParam &h = head(i);
    const std::string &n = side(i).name, fn = "f_" + n;
    if (h.pointer_depth == 0) {
      formal(h.base_name + " *", fn, fn);
      // A keyval as C's (a predefined one may differ in Fortran).
      views_ << "  const " << h.base_name << " " << n << " = "
             << (side(i).kind == HandleKind::Keyval ? std::string(kGlue) + "keyval_f2c(*" + fn + ")"
                                                    : "*" + fn)
             << ";\n";
      return true;
    }
    formal(h.base_name + " *", fn, fn);
    if ((h.base == CType::Int || h.base == CType::Fint) && side(i).len && !h.is_matrix3)
      views_ << "  " << view_decl(h, n) << " = " << kGlue << "int_array(" << fn << ");\n";
    else
      views_ << "  " << view_decl(h, n) << " = " << fn << ";\n";
    return true;
  }

  // Parameter i's length over the views (EncodingWriter's, which reads it
  // from the same names).
  std::string length_of(size_t i) const {
    return length_to_cxx(
        *side(i).len,
        [&](const std::string &q) {
          const int k = f_.sidecar->param_index(q);
          if (head(k).pointer_depth == 0)
            return "static_cast<int64_t>(" + q + ")";
          return "::pilgrim::rt::len_deref(" + q + ")";
        },
        [&](const std::string &q) { return q; });
  }
  // Whether parameter i is significant here: at the root only where the
  // sidecar says so (its views come after the scalars they name).
  std::string significant(size_t i) const {
    const JoinedParam &p = f_.params[i];
    if (!(p.flags & kFlagRootOnly))
      return "true";
    std::string comm = "MPI_COMM_NULL";
    for (size_t k = 0; k < f_.params.size(); ++k)
      if (f_.params[k].header && side(k).role == Role::Handle && side(k).kind == HandleKind::Comm &&
          head(k).pointer_depth == 0) {
        comm = side(k).name;
        break;
      }
    return "::pilgrim::rt::is_root(" + side(p.ref3).name + ", " + comm + ")";
  }

  bool handle(size_t i) override {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    const std::string &n = s.name, fn = "f_" + n;
    HandleNames hn;
    if (!handle_names(s.kind, hn))
      return fail(n + ": a handle without f2c");
    const std::string f2c = std::string("PMPI_") + hn.conv + "_f2c";
    formal("MPI_Fint *", fn, fn);
    if (h.pointer_depth == 0) {
      views_ << "  " << h.base_name << " " << n << " = " << f2c << "(*" << fn << ");\n";
      return true;
    }
    if (s.len) {
      if (s.dir != Direction::In)
        return fail(n + ": an array of handles MPI writes");
      arrays_ << "  const int64_t " << n << "_n = " << significant(i) << " ? " << length_of(i)
              << " : 0;\n"
              << "  " << kGlue << "Array<" << h.base_name << ", 32> " << n << "_a(" << n << "_n);\n"
              << "  for (int64_t k = 0; k < " << n << "_n; ++k)\n"
              << "    " << n << "_a[k] = " << f2c << "(" << fn << "[k]);\n"
              << "  " << view_decl(h, n) << " = " << n << "_a.get();\n";
      return true;
    }
    views_ << "  " << h.base_name << " " << n
           << "_v = " << (s.dir != Direction::Out ? f2c + "(*" + fn + ")" : std::string(hn.null))
           << ";\n"
           << "  " << h.base_name << " *" << n << " = &" << n << "_v;\n";
    if (s.dir != Direction::In)
      after_ << "    " << n << "_v = " << f2c << "(*" << fn << ");\n";
    return true;
  }

  std::string formals_, types_, passed_, forwarded_;
  std::vector<std::string> lengths_;
  // Scalars' views first, so that arrays' lengths and roots can use them.
  std::ostringstream views_, arrays_, after_;
};

} // namespace

bool emit_fortran_forwarding(const JoinedFunction &f, const std::vector<std::string> &aliases,
                             const std::string &pmpi, std::ostream &out, std::string &why) {
  ForwardPlan plan(f);
  if (!plan.plan()) {
    why = plan.why();
    return false;
  }
  const std::string entry = "pilgrim_fortran_" + f.name();
  plan.emit(entry, aliases, pmpi, out);
  return true;
}

} // namespace pilgrim::gen
