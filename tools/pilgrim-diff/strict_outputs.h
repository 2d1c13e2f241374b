// What --strict changes: without it, the values a call gets from the
// environment (pilgrim/environmental_outputs.h: the host's name, the MPI
// library's texts and handle values, MPI_INFO_ENV, hints) are left out of
// the comparison, since a proxy cannot reproduce them.
#pragma once

#include "pilgrim/environmental_outputs.h"

namespace pilgrim::diff {

class OutputFilter {
public:
  explicit OutputFilter(bool strict) : strict_(strict) {}
  // After each call of the rank, in order.
  void apply(const DecodedCall &call) { environment_.apply(call); }
  // Whether parameter `param` of `call` (-1: its return value) is not compared.
  bool ignored(const DecodedCall &call, int param) const;

private:
  bool strict_;
  EnvironmentalOutputs environment_;
};

} // namespace pilgrim::diff
