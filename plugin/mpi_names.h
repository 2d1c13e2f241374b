// Which callees are MPI functions, for the site marker and the static check.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace pilgrim::plugin {

// MPI_* and PMPI_* (the profiling names call the same functions).
inline bool is_mpi_function(llvm::StringRef name) {
  return name.startswith("MPI_") || name.startswith("PMPI_");
}

} // namespace pilgrim::plugin
