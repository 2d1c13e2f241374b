#include "pilgrim/match_events.h"

#include "pilgrim/match_functions.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/request_lifecycle.h"

#include "call_values.h"

#include <map>

namespace pilgrim {

namespace {

using call_values::in_codes;
using call_values::in_element;
using call_values::out_element;
using call_values::out_ints;

// What a receive named as its sender and tag: a wildcard, or the value.
struct Named {
  bool any_source = false, any_tag = false;
  int64_t source = -1, tag = -1;
};

Named named(const Call &c, std::string_view base) {
  Named n;
  const bool sendrecv = base == "MPI_Sendrecv" || base == "MPI_Sendrecv_replace";
  if (const CallElement *s = in_element(c, "source")) {
    n.any_source = s->rank.kind == RankCode::AnySource;
    if (!n.any_source && s->rank.known())
      n.source = s->rank.rank;
  }
  if (const CallElement *t = in_element(c, sendrecv ? "recvtag" : "tag")) {
    n.any_tag = t->tag.any;
    if (!n.any_tag)
      n.tag = t->tag.tag;
  }
  return n;
}

void take_named(const Named &n, MatchEvent &e) {
  e.any_source = n.any_source;
  e.any_tag = n.any_tag;
  e.source = n.source;
  e.tag = n.tag;
}

// What a status says of the message it belongs to, where it says it.
void take_status(const StatusRef &s, MatchEvent &e) {
  if (s.has_source() && s.source.known())
    e.source = s.source.rank;
  if (s.has_match() && !s.tag.any)
    e.tag = s.tag.tag;
}

} // namespace

std::vector<MatchEvent> match_events(const Trace &trace, const std::vector<DecodedCall> &cst,
                                     uint32_t rank, bool *threads) {
  std::vector<MatchEvent> events;
  if (threads)
    *threads = false;
  // A nonblocking receive's event (MPI_Irecv, or a start of a persistent
  // receive), by its request's stored code, until the request completes.
  std::map<uint64_t, size_t> pending;
  // The persistent receives (MPI_Recv_init), by their requests' codes.
  std::map<uint64_t, Named> persistent;
  RequestEvents req;
  RankCalls walk(trace, cst, rank);
  while (walk.advance()) {
    const Call &c = walk.call();
    if (threads && c.thread != 0)
      *threads = true;
    const char *name = c.name();
    if (!name)
      continue;
    const std::string_view fn = name, base = match_base_name(fn);
    request_events(c, req);
    for (const auto &[code, status] : req.completed) {
      const auto it = pending.find(code);
      if (it == pending.end())
        continue;
      if (status)
        take_status(*status, events[it->second]);
      pending.erase(it);
    }
    for (uint64_t code : req.freed)
      persistent.erase(code);
    if (base == "MPI_Recv_init" && req.persistent)
      for (uint64_t code : req.created)
        persistent[code] = named(c, base);
    if (!is_match_function(fn))
      continue;
    if (is_match_start(fn)) {
      // One event per request started, receive or not.
      for (const auto &[code, live] :
           in_codes(c, fn == "MPI_Start" ? "request" : "array_of_requests")) {
        MatchEvent e;
        e.call = walk.index();
        e.function = name;
        const auto p = live ? persistent.find(code) : persistent.end();
        if (p != persistent.end()) {
          e.receive = true;
          take_named(p->second, e);
          pending[code] = events.size();
        }
        events.push_back(std::move(e));
      }
      continue;
    }
    MatchEvent e;
    e.call = walk.index();
    e.function = name;
    if (is_match_poll(fn)) {
      const CallElement *f = out_element(c, "flag");
      e.flag = f && f->integer != 0;
    }
    if (is_match_receive(fn)) {
      e.receive = true;
      take_named(named(c, base), e);
      if (base == "MPI_Irecv") {
        if (const CallElement *r = out_element(c, "request"))
          if (r->coded && !r->handle.null())
            pending[r->coded->code] = events.size();
      } else if (e.flag) {
        if (const CallElement *s = out_element(c, "status"))
          take_status(s->status, e);
      } else {
        e.source = e.tag = -1; // a failed probe matched nothing
      }
    }
    if (fn == "MPI_Waitany" || fn == "MPI_Testany") {
      const CallElement *k = out_element(c, "index");
      if (e.flag && k) {
        if (k->integer < 0)
          e.undefined = true;
        else
          e.indices.push_back(k->integer);
      }
    } else if (fn == "MPI_Waitsome" || fn == "MPI_Testsome") {
      const CallElement *n = out_element(c, "outcount");
      const int64_t count = n ? n->integer : 0;
      e.undefined = count < 0; // MPI_UNDEFINED: no active request
      if (fn == "MPI_Testsome")
        e.flag = count != 0;
      const std::vector<int64_t> k = out_ints(c, "array_of_indices");
      for (int64_t i = 0; i < count && static_cast<size_t>(i) < k.size(); ++i)
        e.indices.push_back(k[static_cast<size_t>(i)]);
    }
    events.push_back(std::move(e));
  }
  return events;
}

std::string describe_match(const MatchEvent &e) {
  std::string s;
  if (!e.flag)
    return "did not succeed";
  if (e.receive) {
    s = "matched source " + (e.source >= 0 ? std::to_string(e.source) : std::string("unknown"));
    s += ", tag " + (e.tag >= 0 ? std::to_string(e.tag) : std::string("unknown"));
    return s;
  }
  if (e.undefined)
    return "returned MPI_UNDEFINED";
  if (!e.indices.empty()) {
    s = e.indices.size() == 1 ? "returned index" : "returned indices";
    for (int64_t i : e.indices)
      s += " " + std::to_string(i);
    return s;
  }
  if (e.function == "MPI_Testsome" || e.function == "MPI_Waitsome")
    return "returned no index";
  return "succeeded";
}

} // namespace pilgrim
