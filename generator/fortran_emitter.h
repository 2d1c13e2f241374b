// The Fortran entry points (mpif.h, `use mpi`, and Open MPI's `use mpi_f08`
// backend): generated from the same joined functions as the C wrappers, for
// the names the MPI's Fortran library really exports, in place of its
// bindings. For a function without a conversion rule whose binding calls the
// C MPI_* function itself (MPICH's), the entry point only passes the call
// site on to the binding (fortran_site_pass.h). See README, "Fortran".
#pragma once

#include "function_join.h"

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pilgrim::gen {

// What `nm -D` says of the MPI's Fortran libraries: the names they define
// and the ones they import.
struct FortranLibrary {
  std::set<std::string> defined, imported;
};

// Reads `nm -D` output; false with a one-line `error` when it cannot be read.
bool read_fortran_symbols(const std::string &path, FortranLibrary &out, std::string &error);

struct FortranReport {
  std::vector<std::string> entries;   // "MPI_Send: mpi_send mpi_send_ ..."
  std::vector<std::string> c_called;  // the Fortran library calls the C function (site pass)
  std::vector<std::string> forwarded; // around the MPI's Fortran binding (fortran_forwarding.h)
  std::vector<std::pair<std::string, std::string>> left; // not converted: name, why
  std::set<std::string> site_entries; // entries that call pilgrim_site_<name> (wrapper_emitter.cpp)
};

// fortran_entries.cpp: one entry point per function the library exports,
// under every name the library exports for it: converting to C, around the
// binding, or (no conversion rule, the library forwards to C) passing the
// site only.
void emit_fortran_entries(const JoinResult &joined, const FortranLibrary &lib, std::ostream &out,
                          FortranReport &report);

// The Fortran part of the coverage report.
void emit_fortran_coverage(const std::string &symbols_path, const FortranReport &report,
                           std::ostream &out);

} // namespace pilgrim::gen
