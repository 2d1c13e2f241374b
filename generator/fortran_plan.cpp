#include "fortran_plan.h"

namespace pilgrim::gen {

bool handle_names(HandleKind k, HandleNames &n) {
  switch (k) {
  case HandleKind::Comm:
    n = {"Comm", "MPI_COMM_NULL"};
    return true;
  case HandleKind::Group:
    n = {"Group", "MPI_GROUP_NULL"};
    return true;
  case HandleKind::Datatype:
    n = {"Type", "MPI_DATATYPE_NULL"};
    return true;
  case HandleKind::Op:
    n = {"Op", "MPI_OP_NULL"};
    return true;
  case HandleKind::Info:
    n = {"Info", "MPI_INFO_NULL"};
    return true;
  case HandleKind::Errhandler:
    n = {"Errhandler", "MPI_ERRHANDLER_NULL"};
    return true;
  case HandleKind::File:
    n = {"File", "MPI_FILE_NULL"};
    return true;
  case HandleKind::Win:
    n = {"Win", "MPI_WIN_NULL"};
    return true;
  case HandleKind::Request:
    n = {"Request", "MPI_REQUEST_NULL"};
    return true;
  case HandleKind::Message:
    n = {"Message", "MPI_MESSAGE_NULL"};
    return true;
  default:
    return false;
  }
}

bool is_integer(CType t) {
  return t == CType::Int || t == CType::Aint || t == CType::Count || t == CType::Offset ||
         t == CType::Fint;
}

void emit_fortran_aliases(const std::string &entry, const std::string &params,
                          const std::vector<std::string> &aliases, std::ostream &out) {
  for (const auto &a : aliases)
    out << "extern \"C\" PILGRIM_EXPORT void " << a << "(" << params
        << ") __attribute__((alias(\"" << entry << "\")));\n";
  out << "\n";
}

} // namespace pilgrim::gen
