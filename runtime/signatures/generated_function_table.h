// The function table pilgrim-gen-wrappers generates for the MPI of this
// build (function_table.cpp in the build tree), sorted by id: the wrapped
// MPI functions and the records that are not MPI calls (records.yaml).
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

// Every row a signature of this build may name: the generated table. Index
// i in [0, traced_function_count()).
size_t traced_function_count();
const FunctionInfo &traced_function(size_t i);
// The index of function `id` among them, or -1.
long traced_function_index(uint16_t id);

} // namespace pilgrim
