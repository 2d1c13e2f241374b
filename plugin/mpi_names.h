// Which callees are MPI functions, for the site marker and the static check.
#pragma once

#include "llvm/ADT/StringRef.h"

namespace pilgrim::plugin {

// MPI_* and PMPI_* (the profiling names call the same functions).
inline bool is_mpi_function(llvm::StringRef name) {
  return name.startswith("MPI_") || name.startswith("PMPI_");
}

// The calls that get a site: MPI_* only. A tracer intercepts MPI_*, never
// PMPI_*, so a PMPI_* call's id would stay in the thread-local variable and
// be taken by the next MPI call made by code built without the plugin.
inline bool is_traced_mpi_function(llvm::StringRef name) { return name.startswith("MPI_"); }

} // namespace pilgrim::plugin
