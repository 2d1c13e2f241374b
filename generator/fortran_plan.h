// What both kinds of Fortran entry point share (fortran_emitter.cpp: the
// arguments converted for the C wrapper; fortran_forwarding.cpp: around the
// MPI's own binding): a plan made parameter by parameter, which fails with
// the reason, and the names of the handle conversions.
#pragma once

#include "function_join.h"

#include <ostream>
#include <string>
#include <vector>

namespace pilgrim::gen {

// The C name of a handle kind's conversion functions (MPI_<X>_f2c) and its null.
struct HandleNames {
  const char *conv, *null;
};
bool handle_names(HandleKind k, HandleNames &n);

bool is_integer(CType t);

// The entry point `entry` exported under each of `aliases` (the names the
// MPI's Fortran library exports for the function), with formals `params`.
void emit_fortran_aliases(const std::string &entry, const std::string &params,
                          const std::vector<std::string> &aliases, std::ostream &out);

class FortranPlan {
public:
  explicit FortranPlan(const JoinedFunction &f) : f_(f) {}
  virtual ~FortranPlan() = default;

  // False with why() when a parameter has no rule. A variadic function
  // (MPI_Pcontrol) takes its named arguments only.
  bool plan() {
    const HeaderFunction &h = *f_.header;
    if (h.return_base != CType::Int)
      return fail("returns " + h.return_type);
    for (size_t i = 0; i < h.params.size(); ++i)
      if (!param(i))
        return false;
    return true;
  }
  const std::string &why() const { return why_; }

protected:
  virtual bool param(size_t i) = 0;
  // A handle (of a handle type) or an integer (an integer handle, a value,
  // rank, tag, offset or address).
  virtual bool handle(size_t i) = 0;
  virtual bool integer(size_t i) = 0;
  bool handle_or_integer(size_t i) {
    const SidecarParam &s = side(i);
    const HeaderParam &h = head(i);
    if (s.role == Role::Handle && h.base == CType::Handle)
      return handle(i);
    if (!is_integer(h.base))
      return fail(s.name + (s.role == Role::Handle ? ": a handle" : ": an integer") + " of type " +
                  h.type);
    return integer(i);
  }
  bool fail(const std::string &why) {
    why_ = why;
    return false;
  }
  const SidecarParam &side(size_t i) const { return *f_.params[i].sidecar; }
  const HeaderParam &head(size_t i) const { return *f_.params[i].header; }

  const JoinedFunction &f_;

private:
  std::string why_;
};

} // namespace pilgrim::gen
