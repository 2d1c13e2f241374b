#include "pilgrim/request_lifecycle.h"

#include "call_values.h"

#include <cstring>
#include <string>

namespace pilgrim {

namespace {

using call_values::in_codes;
using call_values::out_int;
using call_values::out_ints;

// The statuses written (nullptr entries where ignored).
std::vector<const StatusRef *> out_statuses(const Call &c, const char *name) {
  std::vector<const StatusRef *> v;
  const CallArg *d = c.arg(name);
  if (d && d->has_out && !d->out.null)
    for (const CallElement &e : d->out.elements)
      v.push_back(&e.status);
  return v;
}

bool ends_with(const std::string &s, const char *suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

} // namespace

void request_events(const Call &c, RequestEvents &ev) {
  ev.created.clear();
  ev.persistent = false;
  ev.started.clear();
  ev.completed.clear();
  ev.freed.clear();
  ev.cancelled.clear();
  if (!c.function)
    return;
  const std::string fn = c.function->name;
  for (const CallArg &a : c.args)
    if (a.param && a.param->role == Role::Handle && a.param->handle_kind == HandleKind::Request &&
        a.param->action == HandleAction::Create && a.has_out && !a.out.null)
      for (const CallElement &e : a.out.elements)
        if (e.coded && !e.handle.null())
          ev.created.push_back(e.coded->code);
  ev.persistent = !ev.created.empty() && (ends_with(fn, "_init") || ends_with(fn, "_init_c"));

  auto status_at = [](const std::vector<const StatusRef *> &s, size_t i) {
    return i < s.size() ? s[i] : nullptr;
  };
  auto add = [&](const std::vector<std::pair<uint64_t, bool>> &r, size_t i, const StatusRef *s) {
    if (i < r.size() && r[i].second)
      ev.completed.push_back({r[i].first, s});
  };
  if (fn == "MPI_Wait" || (fn == "MPI_Test" && out_int(c, "flag", 0) != 0)) {
    add(in_codes(c, "request"), 0, status_at(out_statuses(c, "status"), 0));
  } else if (fn == "MPI_Waitall" || (fn == "MPI_Testall" && out_int(c, "flag", 0) != 0)) {
    const auto r = in_codes(c, "array_of_requests");
    const std::vector<const StatusRef *> s = out_statuses(c, "array_of_statuses");
    for (size_t i = 0; i < r.size(); ++i)
      add(r, i, status_at(s, i));
  } else if (fn == "MPI_Waitany" || (fn == "MPI_Testany" && out_int(c, "flag", 0) != 0)) {
    const int64_t k = out_int(c, "index", -1);
    if (k >= 0)
      add(in_codes(c, "array_of_requests"), static_cast<size_t>(k),
          status_at(out_statuses(c, "status"), 0));
  } else if (fn == "MPI_Waitsome" || fn == "MPI_Testsome") {
    const auto r = in_codes(c, "array_of_requests");
    const std::vector<int64_t> k = out_ints(c, "array_of_indices");
    const std::vector<const StatusRef *> s = out_statuses(c, "array_of_statuses");
    const int64_t n = out_int(c, "outcount", 0);
    for (int64_t i = 0; i < n && static_cast<size_t>(i) < k.size(); ++i)
      if (k[static_cast<size_t>(i)] >= 0)
        add(r, static_cast<size_t>(k[static_cast<size_t>(i)]),
            status_at(s, static_cast<size_t>(i)));
  } else if (fn == "MPI_Start" || fn == "MPI_Startall") {
    for (const auto &r : in_codes(c, fn == "MPI_Start" ? "request" : "array_of_requests"))
      if (r.second)
        ev.started.push_back(r.first);
  } else if (fn == "MPI_Request_free" || fn == "MPI_Cancel") {
    for (const auto &r : in_codes(c, "request"))
      if (r.second)
        (fn == "MPI_Cancel" ? ev.cancelled : ev.freed).push_back(r.first);
  }
}

} // namespace pilgrim
