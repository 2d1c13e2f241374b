// Integer arguments that stand for named MPI constants whose values differ
// between MPI libraries (MPI_ORDER_C is 0 in Open MPI and 56 in MPICH). A
// trace stores the value of the library it was taken with (TraceHeader::
// mpi_library); the proxy writes the name, so that it is right under any MPI.
#pragma once

#include <cstdint>
#include <string>

namespace pilgrim::proxygen {

// The C expression for `value` of parameter `param` of `function` in a trace
// taken with `library` ("Open MPI", "MPICH"): a name, names OR-ed together for
// flag sets (MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE), or "" when the parameter
// is not a named constant or the value is not one of the library's (then
// the number is kept).
std::string named_constant(const std::string &library, const std::string &function,
                           const std::string &param, int64_t value);

} // namespace pilgrim::proxygen
