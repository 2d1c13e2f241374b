#include "generalized_requests.h"

#include <cstring>

#include "pilgrim/request_id.h"

namespace pilgrim::proxygen {

namespace {

bool is_request(const ParamInfo &pi) {
  return pi.role == Role::Handle && pi.handle_kind == HandleKind::Request;
}

// Calls `f(pool)` for each user request of `value`; false when it holds
// another code (a null or predefined request).
template <class F> bool each_pool(const CallValue &value, F f) {
  bool all_user = true;
  for (const CallElement &e : value.elements) {
    if (e.handle.user())
      f(request_id_parts(e.handle.id).pool);
    else
      all_user = false;
  }
  return all_user;
}

} // namespace

GeneralizedRequests::GeneralizedRequests(const std::vector<Call> &calls) {
  std::set<uint64_t> others;
  for (const Call &c : calls) {
    if (!c.function || !c.function->name)
      continue;
    const bool start = std::strcmp(c.function->name, "MPI_Grequest_start") == 0;
    for (const CallArg &a : c.args) {
      if (!is_request(*a.param) || a.param->action != HandleAction::Create || !a.has_out)
        continue;
      each_pool(a.out, [&](uint64_t pool) { (start ? pools_ : others).insert(pool); });
    }
  }
  for (uint64_t pool : others)
    pools_.erase(pool);
}

bool GeneralizedRequests::only_generalized(const Call &poll) const {
  if (pools_.empty() || !poll.function)
    return false;
  bool any = false, all = true;
  for (const CallArg &a : poll.args) {
    const CallValue *v = a.has_in ? &a.in : nullptr;
    if (!is_request(*a.param) || !v || v->null)
      continue;
    all &= each_pool(*v, [&](uint64_t pool) {
      any = true;
      all &= pools_.count(pool) != 0;
    });
  }
  return any && all;
}

} // namespace pilgrim::proxygen
