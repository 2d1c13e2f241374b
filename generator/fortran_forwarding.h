// The Fortran entry point of a function whose Fortran binding has other
// semantics than C's (callbacks of the Fortran signature, attribute values
// and extra states that are INTEGER(KIND=MPI_ADDRESS_KIND) values, memory
// addresses MPI writes into an INTEGER): the MPI's own Fortran binding runs
// (its PMPI name: pmpi_op_create_), and the call is recorded as the C call
// it stands for, over C views of the Fortran arguments (handles through
// f2c), by the same encoding statements as the C wrapper's
// (encoding_writer.h). Attribute callbacks the runtime records go to MPI
// wrapped in trampolines of the Fortran signature (runtime/callback_records.h,
// record_fortran_*). See README, "Fortran".
#pragma once

#include "function_join.h"

#include <ostream>
#include <string>
#include <vector>

namespace pilgrim::gen {

// Emits `f`'s forwarding entry point under `aliases`, calling `pmpi` (the
// Fortran library's PMPI name of the binding); false with `why` when a
// parameter has no C view.
bool emit_fortran_forwarding(const JoinedFunction &f, const std::vector<std::string> &aliases,
                             const std::string &pmpi, std::ostream &out, std::string &why);

} // namespace pilgrim::gen
