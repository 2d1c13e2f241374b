// Site-passing Fortran entry points (fortran_site_pass.h).
#include "fortran_site_pass.h"

#include "fortran_plan.h"

#include <sstream>

namespace pilgrim::gen {

bool emit_fortran_site_pass(const JoinedFunction &f, const std::vector<std::string> &aliases,
                            const std::string &pmpi, std::ostream &out, std::string &why) {
  const HeaderFunction &h = *f.header;
  // MPI_Wtime, MPI_Aint_add and the like are Fortran functions: a value in
  // a register this entry point would have to pass back by type.
  if (h.return_base != CType::Int) {
    why = "returns " + h.return_type;
    return false;
  }
  std::ostringstream formals, types, passed;
  size_t n = 0, lengths = 0;
  auto add = [&](const std::string &type, const std::string &name) {
    const char *sep = n++ ? ", " : "";
    formals << sep << type << " " << name;
    types << sep << type;
    passed << sep << name;
  };
  for (size_t i = 0; i < h.params.size(); ++i) {
    if (f.params[i].sidecar->role == Role::Opaque)
      continue; // MPI_Init's command line: Fortran has none
    add("void *", "a" + std::to_string(i));
    if (h.params[i].base == CType::Char)
      ++lengths; // CHARACTER: a hidden length after the arguments
  }
  // MPI_PCONTROL(LEVEL), the variadic function, has no IERROR in Fortran.
  if (!h.variadic)
    add("void *", "ierr");
  for (size_t k = 0; k < lengths; ++k)
    add("unsigned long", "len" + std::to_string(k));
  const std::string entry = "pilgrim_fortran_" + h.name;
  out << "// " << h.name << " (id " << f.id() << "): the MPI's Fortran binding calls the C function\n"
      // noplt: called through the GOT, one jump less than the PLT's.
      << "extern \"C\" void " << pmpi << "(" << types.str() << ") __attribute__((weak, noplt));\n"
      << "extern \"C\" void " << entry << "(" << formals.str() << ") {\n"
      << "  ::pilgrim::rt::fortran::pass_site(__builtin_return_address(0));\n"
      << "  " << pmpi << "(" << passed.str() << ");\n"
      << "}\n";
  emit_fortran_aliases(entry, formals.str(), aliases, out);
  return true;
}

} // namespace pilgrim::gen
