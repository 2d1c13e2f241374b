#include "generated_function_table.h"

#include <algorithm>
#include <cstring>

namespace pilgrim {

const FunctionInfo *generated_function(uint16_t id) {
  const FunctionInfo *end = kGeneratedFunctions + kGeneratedFunctionCount;
  const FunctionInfo *it = std::lower_bound(
      kGeneratedFunctions, end, id, [](const FunctionInfo &f, uint16_t v) { return f.id < v; });
  return it != end && it->id == id ? it : nullptr;
}

const FunctionInfo *generated_function(const char *name) {
  for (size_t i = 0; i < kGeneratedFunctionCount; ++i)
    if (std::strcmp(kGeneratedFunctions[i].name, name) == 0)
      return &kGeneratedFunctions[i];
  return nullptr;
}

size_t traced_function_count() { return kGeneratedFunctionCount; }

const FunctionInfo &traced_function(size_t i) { return kGeneratedFunctions[i]; }

long traced_function_index(uint16_t id) {
  const FunctionInfo *f = generated_function(id);
  return f ? static_cast<long>(f - kGeneratedFunctions) : -1;
}

} // namespace pilgrim
