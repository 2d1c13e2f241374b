#include "pilgrim/cart_topology.h"

#include <string_view>

namespace pilgrim {

namespace {

const DecodedValue *param(const DecodedCall &call, std::string_view name) {
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams; ++i)
    if (f.params[i].name && name == f.params[i].name)
      return call.params[i].any();
  return nullptr;
}

std::vector<int> ints(const DecodedValue *v) {
  std::vector<int> out;
  if (v && !v->null)
    for (const DecodedElement &e : v->elements)
      out.push_back(static_cast<int>(e.integer));
  return out;
}

std::string_view name_of(const DecodedCall &call) {
  return call.function && call.function->name ? call.function->name : "";
}

} // namespace

bool inherits_grid(const DecodedCall &call, uint64_t &parent_code) {
  const std::string_view name = name_of(call);
  if (name != "MPI_Cart_sub" && name != "MPI_Comm_dup" && name != "MPI_Comm_dup_with_info" &&
      name != "MPI_Comm_idup" && name != "MPI_Comm_idup_with_info")
    return false;
  const DecodedValue *v = param(call, "comm");
  if (!v || v->null || v->elements.size() != 1)
    return false;
  parent_code = v->elements[0].code;
  return true;
}

CartGrid created_grid(const DecodedCall &call, const CartGrid &parent) {
  const std::string_view name = name_of(call);
  if (name == "MPI_Cart_create") {
    CartTopology g{ints(param(call, "dims")), ints(param(call, "periods"))};
    if (g.dims.size() != g.periods.size())
      return nullptr;
    return std::make_shared<const CartTopology>(std::move(g));
  }
  uint64_t parent_code = 0;
  if (!parent || !inherits_grid(call, parent_code))
    return nullptr;
  if (name != "MPI_Cart_sub")
    return parent;
  const std::vector<int> remain = ints(param(call, "remain_dims"));
  if (remain.size() != parent->dims.size())
    return nullptr;
  CartTopology g;
  for (size_t d = 0; d < remain.size(); ++d)
    if (remain[d]) {
      g.dims.push_back(parent->dims[d]);
      g.periods.push_back(parent->periods[d]);
    }
  return std::make_shared<const CartTopology>(std::move(g));
}

} // namespace pilgrim
