#include "generated_function_table.h"

#include "pilgrim/callback_records.h"

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

size_t traced_function_count() { return kGeneratedFunctionCount + kCallbackRecordCount; }

const FunctionInfo &traced_function(size_t i) {
  return i < kGeneratedFunctionCount ? kGeneratedFunctions[i]
                                     : kCallbackRecordFunctions[i - kGeneratedFunctionCount];
}

long traced_function_index(uint16_t id) {
  if (const FunctionInfo *f = generated_function(id))
    return static_cast<long>(f - kGeneratedFunctions);
  for (size_t i = 0; i < kCallbackRecordCount; ++i)
    if (kCallbackRecordFunctions[i].id == id)
      return static_cast<long>(kGeneratedFunctionCount + i);
  return -1;
}

}  // namespace pilgrim
