#include "pilgrim/match_events.h"

#include "pilgrim/match_functions.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/request_lifecycle.h"

#include <map>

namespace pilgrim {

namespace {

const CallElement *in_element(const Call &c, const char *name) {
  const CallArg *a = c.arg(name);
  if (!a || !a->has_in || a->in.null || a->in.elements.empty())
    return nullptr;
  return &a->in.elements[0];
}

const CallElement *out_element(const Call &c, const char *name) {
  const CallArg *a = c.arg(name);
  if (!a || !a->has_out || a->out.null || a->out.elements.empty())
    return nullptr;
  return &a->out.elements[0];
}

std::vector<int64_t> out_integers(const Call &c, const char *name) {
  std::vector<int64_t> v;
  const CallArg *a = c.arg(name);
  if (a && a->has_out && !a->out.null)
    for (const CallElement &e : a->out.elements)
      v.push_back(e.integer);
  return v;
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
  // A nonblocking receive's event, by its request's stored code, until the
  // request completes.
  std::map<uint64_t, size_t> pending;
  RequestEvents req;
  RankCalls walk(trace, cst, rank);
  while (walk.advance()) {
    const Call &c = walk.call();
    if (threads && c.thread != 0)
      *threads = true;
    const char *name = c.name();
    if (!name)
      continue;
    const std::string_view fn = name;
    request_events(c, req);
    for (const auto &[code, status] : req.completed) {
      const auto it = pending.find(code);
      if (it == pending.end())
        continue;
      if (status)
        take_status(*status, events[it->second]);
      pending.erase(it);
    }
    if (!is_match_function(fn))
      continue;
    MatchEvent e;
    e.call = walk.index();
    e.function = name;
    if (is_match_poll(fn)) {
      const CallElement *f = out_element(c, "flag");
      e.flag = f && f->integer != 0;
    }
    if (is_match_receive(fn)) {
      e.receive = true;
      const bool sendrecv = fn == "MPI_Sendrecv" || fn == "MPI_Sendrecv_replace";
      if (const CallElement *s = in_element(c, "source")) {
        e.any_source = s->rank.kind == RankCode::AnySource;
        if (!e.any_source && s->rank.known())
          e.source = s->rank.rank;
      }
      if (const CallElement *t = in_element(c, sendrecv ? "recvtag" : "tag")) {
        e.any_tag = t->tag.any;
        if (!e.any_tag)
          e.tag = t->tag.tag;
      }
      if (fn == "MPI_Irecv") {
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
      const std::vector<int64_t> k = out_integers(c, "array_of_indices");
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
