#include "generalized_requests.h"

#include <cstring>

#include "pilgrim/request_id.h"
#include "pilgrim/value_codes.h"

namespace pilgrim::proxygen {

namespace {

bool is_request(const ParamInfo &pi) {
  return pi.role == Role::Handle && pi.handle_kind == HandleKind::Request;
}

// Calls `f(pool)` for each user request of `value`; false when it holds
// another code (a null or predefined request).
template <class F> bool each_pool(const DecodedValue &value, F f) {
  bool all_user = true;
  for (const DecodedElement &e : value.elements) {
    const HandleCode hc = decode_handle_code(e.code);
    if (hc.kind == HandleCode::User)
      f(request_id_parts(hc.index).pool);
    else
      all_user = false;
  }
  return all_user;
}

} // namespace

GeneralizedRequests::GeneralizedRequests(const std::vector<DecodedCall> &calls) {
  std::set<uint64_t> others;
  for (const DecodedCall &c : calls) {
    if (!c.function || !c.function->name)
      continue;
    const bool start = std::strcmp(c.function->name, "MPI_Grequest_start") == 0;
    for (size_t p = 0; p < c.params.size(); ++p) {
      const ParamInfo &pi = c.function->params[p];
      if (!is_request(pi) || pi.action != HandleAction::Create || !c.params[p].has_out)
        continue;
      each_pool(c.params[p].out, [&](uint64_t pool) { (start ? pools_ : others).insert(pool); });
    }
  }
  for (uint64_t pool : others)
    pools_.erase(pool);
}

bool GeneralizedRequests::only_generalized(const DecodedCall &poll) const {
  if (pools_.empty() || !poll.function)
    return false;
  bool any = false, all = true;
  for (size_t p = 0; p < poll.params.size(); ++p) {
    const ParamInfo &pi = poll.function->params[p];
    const DecodedValue *v = poll.params[p].has_in ? &poll.params[p].in : nullptr;
    if (!is_request(pi) || !v || v->null)
      continue;
    all &= each_pool(*v, [&](uint64_t pool) {
      any = true;
      all &= pools_.count(pool) != 0;
    });
  }
  return any && all;
}

} // namespace pilgrim::proxygen
