#include "pilgrim/datatype_layouts.h"

#include <cstring>

#include "pilgrim/record_ranges.h"

namespace pilgrim {
namespace {

// The single element of parameter `name` of role `role`, or nullptr.
const DecodedElement *element(const DecodedCall &call, const char *name, Role role) {
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams && i < call.params.size(); ++i) {
    if (!f.params[i].name || std::strcmp(f.params[i].name, name) != 0)
      continue;
    const DecodedValue *v = f.params[i].role == role ? call.params[i].any() : nullptr;
    return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
  }
  return nullptr;
}

} // namespace

bool datatype_layout_record(const DecodedCall &call, uint64_t &datatype_code,
                            DatatypeLayout &layout) {
  if (call.function_id != kDatatypeLayoutRecord || !call.function)
    return false;
  const DecodedElement *type = element(call, "datatype", Role::Handle);
  const DecodedElement *size = element(call, "size", Role::Value);
  if (!type || !size)
    return false;
  datatype_code = type->code;
  layout = DatatypeLayout{};
  layout.size = size->integer;
  const auto bound = [&call](const char *name, DatatypeBound &b) {
    if (const DecodedElement *e = element(call, name, Role::Address))
      b = DatatypeBound{true, e->code, e->integer};
  };
  bound("lb", layout.lb);
  bound("ub", layout.ub);
  bound("true_lb", layout.true_lb);
  bound("true_ub", layout.true_ub);
  return true;
}

bool DatatypeLayouts::apply(const DecodedCall &call) {
  uint64_t code = 0;
  DatatypeLayout layout;
  if (!datatype_layout_record(call, code, layout))
    return false;
  const auto [it, added] = by_code_.emplace(code, layout);
  if (added)
    return true;
  DatatypeLayout &slot = it->second;
  const bool changed = !(slot == layout);
  slot = layout;
  return changed;
}

const DatatypeLayout *DatatypeLayouts::find(uint64_t datatype_code) const {
  const auto it = by_code_.find(datatype_code);
  return it == by_code_.end() ? nullptr : &it->second;
}

} // namespace pilgrim
