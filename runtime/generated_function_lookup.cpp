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

}  // namespace pilgrim
