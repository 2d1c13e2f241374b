#include "wildcard_sources.h"

#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "pilgrim/grammar_walker.h"
#include "pilgrim/request_lifecycle.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim::proxygen {

namespace {

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
    RequestEvents events;
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
      request_events(calls[t], events);
      // A freed or cancelled receive matched nothing known.
      for (const std::vector<uint64_t> *released : {&events.freed, &events.cancelled})
        for (uint64_t r : *released) {
          const auto it = live.find(r);
          if (it != live.end()) {
            unknown.insert(it->second);
            live.erase(it);
          }
        }
      for (const auto &d : events.completed) {
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
