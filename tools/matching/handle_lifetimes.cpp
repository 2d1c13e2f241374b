#include "handle_lifetimes.h"

#include <string>

#include "pilgrim/predefined_handles.h"

namespace pilgrim {

namespace {

bool tracked(HandleKind k) { return k == HandleKind::Comm || k == HandleKind::Datatype; }

} // namespace

void HandleLifetimes::call(const Call &call, CallPlace where, const CommResolver &) {
  for (const CallArg &a : call.args) {
    if (!a.param || a.param->role != Role::Handle || !tracked(a.param->handle_kind))
      continue;
    if (a.param->action == HandleAction::Create && a.has_out && !a.out.null) {
      for (const CallElement &e : a.out.elements)
        if (e.handle.user())
          live_[a.param->handle_kind][e.handle.id] = Created{where, call.name()};
    } else if (a.param->action == HandleAction::Free && a.has_in && !a.in.null) {
      for (const CallElement &e : a.in.elements)
        if (e.handle.user())
          live_[a.param->handle_kind].erase(e.handle.id);
    }
  }
}

void HandleLifetimes::rank_done(uint32_t) {
  for (const auto &[kind, handles] : live_)
    for (const auto &[id, c] : handles)
      findings.push_back({MatchFinding::Severity::Warning, c.where,
                          std::string(c.function) + ": " +
                              (kind == HandleKind::Comm ? "communicator " : "datatype ") +
                              handle_id_prefix(kind) + "#" + std::to_string(id) +
                              " is never freed"});
  live_.clear();
}

} // namespace pilgrim
