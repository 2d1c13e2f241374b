#include "wildcard_sources.h"

#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "pilgrim/grammar_walker.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim::proxygen {

namespace {

// The output integer `name`, or `absent`.
int64_t out_int(const Call &c, const char *name, int64_t absent) {
  const CallArg *d = c.arg(name);
  if (!d || !d->has_out || d->out.null || d->out.elements.size() != 1)
    return absent;
  return d->out.elements[0].integer;
}

std::vector<int64_t> out_ints(const Call &c, const char *name) {
  std::vector<int64_t> v;
  const CallArg *d = c.arg(name);
  if (d && d->has_out && !d->out.null)
    for (const CallElement &e : d->out.elements)
      v.push_back(e.integer);
  return v;
}

// The requests passed in, as their stored codes (which tell requests
// apart).
std::vector<uint64_t> in_codes(const Call &c, const char *name) {
  std::vector<uint64_t> v;
  const CallArg *d = c.arg(name);
  if (d && d->has_in && !d->in.null)
    for (const CallElement &e : d->in.elements)
      v.push_back(e.coded->code);
  return v;
}

// The statuses written (nullptr entries where ignored).
std::vector<const StatusRef *> out_statuses(const Call &c, const char *name) {
  std::vector<const StatusRef *> v;
  const CallArg *d = c.arg(name);
  if (d && d->has_out && !d->out.null)
    for (const CallElement &e : d->out.elements)
      v.push_back(&e.status);
  return v;
}

// The requests a call completes, each with its status (nullptr when
// ignored); `released` gets the requests it frees or cancels unmatched.
void completions(const Call &c, std::vector<std::pair<uint64_t, const StatusRef *>> &done,
                 std::vector<uint64_t> &released) {
  const std::string fn = c.function->name;
  auto status_at = [](const std::vector<const StatusRef *> &s, size_t i) {
    return i < s.size() ? s[i] : nullptr;
  };
  if (fn == "MPI_Wait" || (fn == "MPI_Test" && out_int(c, "flag", 0) != 0)) {
    const std::vector<uint64_t> r = in_codes(c, "request");
    if (r.size() == 1)
      done.push_back({r[0], status_at(out_statuses(c, "status"), 0)});
  } else if (fn == "MPI_Waitall" || (fn == "MPI_Testall" && out_int(c, "flag", 0) != 0)) {
    const std::vector<uint64_t> r = in_codes(c, "array_of_requests");
    const std::vector<const StatusRef *> s = out_statuses(c, "array_of_statuses");
    for (size_t i = 0; i < r.size(); ++i)
      done.push_back({r[i], status_at(s, i)});
  } else if (fn == "MPI_Waitany" || (fn == "MPI_Testany" && out_int(c, "flag", 0) != 0)) {
    const std::vector<uint64_t> r = in_codes(c, "array_of_requests");
    const int64_t k = out_int(c, "index", -1);
    if (k >= 0 && static_cast<size_t>(k) < r.size())
      done.push_back({r[static_cast<size_t>(k)], status_at(out_statuses(c, "status"), 0)});
  } else if (fn == "MPI_Waitsome" || fn == "MPI_Testsome") {
    const std::vector<uint64_t> r = in_codes(c, "array_of_requests");
    const std::vector<int64_t> k = out_ints(c, "array_of_indices");
    const std::vector<const StatusRef *> s = out_statuses(c, "array_of_statuses");
    const int64_t n = out_int(c, "outcount", 0);
    for (int64_t i = 0; i < n && static_cast<size_t>(i) < k.size(); ++i)
      if (k[static_cast<size_t>(i)] >= 0 &&
          static_cast<size_t>(k[static_cast<size_t>(i)]) < r.size())
        done.push_back({r[static_cast<size_t>(k[static_cast<size_t>(i)])],
                        status_at(s, static_cast<size_t>(i))});
  } else if (fn == "MPI_Request_free" || fn == "MPI_Cancel") {
    const std::vector<uint64_t> r = in_codes(c, "request");
    released.insert(released.end(), r.begin(), r.end());
  }
}

// The created request of an MPI_Irecv(MPI_ANY_SOURCE, ..., MPI_COMM_WORLD).
bool wildcard_irecv(const Call &c, uint64_t &request) {
  if (std::strcmp(c.function->name, "MPI_Irecv") != 0)
    return false;
  const CallArg *src = c.arg("source"), *comm = c.arg("comm"), *req = c.arg("request");
  if (!src || !comm || !req || !src->has_in || src->in.elements.size() != 1 || !comm->has_in ||
      comm->in.elements.size() != 1 || !req->has_out || req->out.elements.size() != 1)
    return false;
  const HandleRef &h = comm->in.elements[0].handle;
  if (src->in.elements[0].rank.kind != RankCode::AnySource || !h.predefined() || h.id != 0)
    return false;
  request = req->out.elements[0].coded->code;
  return true;
}

} // namespace

std::map<uint64_t, std::vector<int64_t>> irecv_sources(const Trace &trace,
                                                       const std::vector<Call> &calls) {
  std::map<uint64_t, std::vector<int64_t>> found;
  std::set<uint64_t> unknown;
  const uint32_t n = trace.nranks();
  for (uint32_t rank = 0; rank < n; ++rank) {
    const RankView view = trace.rank(rank);
    GrammarWalker walker(*view.rules, view.root);
    std::map<uint64_t, uint64_t> live; // request code -> the Irecv's CST entry
    std::vector<std::pair<uint64_t, const StatusRef *>> done;
    std::vector<uint64_t> released;
    uint64_t t = 0;
    while (walker.next(t)) {
      if (t >= calls.size() || !calls[t].function)
        continue;
      uint64_t request = 0;
      if (wildcard_irecv(calls[t], request)) {
        const auto old = live.find(request);
        if (old != live.end())
          unknown.insert(old->second);
        live[request] = t;
        continue;
      }
      done.clear();
      released.clear();
      completions(calls[t], done, released);
      for (uint64_t r : released) {
        const auto it = live.find(r);
        if (it != live.end()) {
          unknown.insert(it->second);
          live.erase(it);
        }
      }
      for (const auto &d : done) {
        const auto it = live.find(d.first);
        if (it == live.end())
          continue;
        const uint64_t irecv = it->second;
        live.erase(it);
        // A completion's status source is relative to the caller's rank in
        // the request's communicator, here MPI_COMM_WORLD (in versions 1
        // and 2 always MPI_COMM_WORLD; docs/FORMAT.md §8.3).
        int64_t source = kNoSource;
        if (d.second && d.second->has_source()) {
          const RankRef &r = d.second->source;
          if (r.kind == RankCode::Relative)
            source = static_cast<int64_t>(rank) + r.offset;
          else if (r.kind == RankCode::Absolute)
            source = r.offset;
        }
        std::vector<int64_t> &per_rank = found[irecv];
        per_rank.resize(n, kNoSource);
        if (source < 0 || source >= static_cast<int64_t>(n) ||
            (per_rank[rank] != kNoSource && per_rank[rank] != source))
          unknown.insert(irecv);
        else
          per_rank[rank] = source;
      }
    }
    for (const auto &l : live)
      unknown.insert(l.second);
  }
  for (uint64_t t : unknown)
    found.erase(t);
  return found;
}

} // namespace pilgrim::proxygen
