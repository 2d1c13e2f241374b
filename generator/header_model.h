// The MPI functions an mpi.h declares, read from Clang's AST of a translation
// unit that includes it, exactly as the compiler sees it.
#pragma once

#include "pilgrim/function_table.h"

#include <string>
#include <vector>

namespace pilgrim::gen {

struct HeaderParam {
  std::string header_name;  // name in the header ("" if unnamed)
  std::string type;         // type as written, e.g. "const int[]", "MPI_Comm"
  std::string base_name;    // typedef/builtin name after stripping * and []
  CType base = CType::Other;
  int pointer_depth = 0;    // pointers (and array brackets) stripped to reach the base
  bool is_array = false;    // declared with []
  bool is_matrix3 = false;  // declared T x[][3]
  bool is_const = false;    // const pointee/element
  bool is_function = false; // a function pointer
  // Printer for a declaration of this parameter with another name.
  std::string declare(const std::string &name) const;
  std::string decl_pattern; // declaration with the placeholder "@NAME@"
};

struct HeaderFunction {
  std::string name;          // MPI_Send
  std::string return_type;   // int
  CType return_base = CType::Int;
  std::vector<HeaderParam> params;
  bool variadic = false;
  bool has_pmpi = false;     // PMPI_ twin declared
  std::string location;      // file:line of the declaration
};

struct HeaderModel {
  std::vector<HeaderFunction> functions; // sorted by name; MPI_ with PMPI_ twin
  std::vector<std::string> without_pmpi; // MPI_ functions lacking a PMPI_ twin
  std::vector<std::string> extensions;   // MPIX_ functions (not wrapped)
};

// Parses `header` with `clang_args` (include paths, macros, -resource-dir),
// then the header's own folder on the include path.
// On a parse error Clang's diagnostics go to stderr and false is returned.
bool read_header(const std::string &header, const std::vector<std::string> &clang_args,
                 HeaderModel &out);

}  // namespace pilgrim::gen
