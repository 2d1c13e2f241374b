// Evaluates the RPN length program of an array parameter (ParamInfo::len,
// docs/FORMAT.md "Length programs") given accessors to the call's values.
// Used by readers (proxygen) to know how many elements an array parameter
// has; the runtime evaluates its own generated C++ instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "pilgrim/function_table.h"

namespace pilgrim {

struct LengthAccessors {
  // Value of parameter #i (a pointer parameter dereferenced; MPI_UNDEFINED
  // should be returned as 0). Used by LenOp::Param.
  std::function<int64_t(int param)> value;
  // Element `index` of array parameter #i. Used by LenOp::Elem and LenOp::Sum.
  std::function<int64_t(int param, int64_t index)> element;
  // A fact about communicator / group parameter #i: `op` is Peers, CommSize,
  // InDegree, OutDegree, GroupSize or CartDim.
  std::function<int64_t(LenOp op, int param)> comm_fact;
  // Number of elements before the NULL terminator of array parameter #i.
  std::function<int64_t(int param)> null_terminated_length;
};

// LenOp::Sum refuses more terms than this (a guard against hostile counts).
constexpr int64_t kMaxLengthSumTerms = int64_t{1} << 24;

// Runs the program; throws TraceError on a malformed program (empty, stack
// underflow, more than one value left, unknown op, parameter index outside
// [0, nparams)), on arithmetic overflow, on a missing accessor and on a
// negative result.
int64_t eval_length_program(const LenInstr *program, size_t size, const LengthAccessors &acc,
                            int nparams = 255);

inline int64_t eval_length(const ParamInfo &param, const LengthAccessors &acc, int nparams = 255) {
  return eval_length_program(param.len, param.len ? param.len_size : 0, acc, nparams);
}

// The parameter `index` of `fn`, with parameter indices checked against fn.nparams.
int64_t eval_length(const FunctionInfo &fn, int index, const LengthAccessors &acc);

} // namespace pilgrim
