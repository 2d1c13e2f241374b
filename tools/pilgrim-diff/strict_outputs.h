// What --strict changes: without it, the values a call gets from the
// environment (pilgrim/environmental_outputs.h: the host's name, the MPI
// library's texts and handle values, MPI_INFO_ENV, hints) are left out of
// the comparison, since a proxy cannot reproduce them, and arrays whose
// order the library chose are compared in any order.
#pragma once

#include <cstdint>

#include "pilgrim/environmental_outputs.h"

namespace pilgrim::diff {

class OutputFilter {
public:
  OutputFilter(bool strict, bool mpich) : strict_(strict), mpich_(mpich) {}
  // After each call of the rank, in order.
  void apply(const Call &call) { environment_.apply(call); }
  // Whether parameter `param` of `call` (-1: its return value) is not compared.
  bool ignored(const Call &call, int param) const;
  // Whether parameter `param` of `call` is compared in any order (the
  // neighbors of a graph MPI_Dist_graph_create made).
  bool unordered(const Call &call, int param) const;
  // Whether two return codes of a trace taken with MPICH are the same error:
  // MPICH's codes (src/mpi/errhan/errutil.c) hold, besides the error's class
  // and message, the slot and sequence number of their entry in a ring of
  // error messages, which count every error the library made before, its
  // own internal ones included.
  bool same_error(int64_t a, int64_t b) const;

private:
  bool strict_;
  bool mpich_;
  EnvironmentalOutputs environment_;
};

} // namespace pilgrim::diff
