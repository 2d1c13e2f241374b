// The Fortran entry point of a function that has no conversion rule
// (fortran_emitter.cpp) and whose Fortran binding calls the C MPI_* function
// itself (MPICH's libmpifort): the C wrapper records the call
// when the binding reaches it, so the entry point records nothing. It only
// passes the application's call site on (its own return address, in the
// thread's state, which the C wrapper's constructor takes) and tail-calls
// the binding by its PMPI name with the arguments as they came: every
// Fortran argument is a pointer, and each CHARACTER argument adds a hidden
// length after them, forwarded whole (a register or a stack slot). Without
// it the site of an MPICH Fortran call was the binding's code in libmpifort.
// See README, "Call sites".
#pragma once

#include "function_join.h"

#include <ostream>
#include <string>
#include <vector>

namespace pilgrim::gen {

// Emits `f`'s site-passing entry point under `aliases`, calling `pmpi`;
// false with `why` when its Fortran form is not a subroutine.
bool emit_fortran_site_pass(const JoinedFunction &f, const std::vector<std::string> &aliases,
                            const std::string &pmpi, std::ostream &out, std::string &why);

} // namespace pilgrim::gen
