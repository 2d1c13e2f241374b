// The function table pilgrim-gen-wrappers generates for the MPI of this
// build (function_table.cpp in the build tree), sorted by id.
#pragma once

#include "pilgrim/function_table.h"

#include <cstddef>

namespace pilgrim {

extern const FunctionInfo kGeneratedFunctions[];
extern const size_t kGeneratedFunctionCount;

// The row of function `id`, or nullptr.
const FunctionInfo *generated_function(uint16_t id);
// The row named `name`, or nullptr.
const FunctionInfo *generated_function(const char *name);

}  // namespace pilgrim
