#include "p2p_operations.h"

#include <cstring>
#include <string>
#include <string_view>

#include "pilgrim/message_volume.h"
#include "pilgrim/reader.h"

namespace pilgrim {

namespace {

// A function's name without the large-count suffix "_c".
std::string_view base_name(const char *name) {
  std::string_view n(name ? name : "");
  if (n.size() > 2 && n.substr(n.size() - 2) == "_c")
    n.remove_suffix(2);
  return n;
}

bool one_of(std::string_view n, std::initializer_list<std::string_view> names) {
  for (std::string_view x : names)
    if (n == x)
      return true;
  return false;
}

const CallElement *first(const Call &call, const char *param) {
  const CallArg *a = call.arg(param);
  if (!a)
    return nullptr;
  const CallValue *v = a->any();
  return v && !v->null && !v->elements.empty() ? &v->elements[0] : nullptr;
}

const CallValue *out_value(const Call &call, const char *param) {
  const CallArg *a = call.arg(param);
  return a && a->has_out ? &a->out : nullptr;
}

int64_t integer_out(const Call &call, const char *param, int64_t otherwise) {
  const CallValue *v = out_value(call, param);
  return v && !v->null && !v->elements.empty() ? v->elements[0].integer : otherwise;
}

int64_t buffer_bytes(const Call &call, const char *param) {
  for (size_t i = 0; i < call.args.size(); ++i)
    if (call.args[i].param && std::strcmp(call.args[i].param->name, param) == 0) {
      const MessageVolume mv = buffer_volume(call, i);
      return mv.complete ? static_cast<int64_t>(mv.bytes) : -1;
    }
  return -1;
}

// A request: what created it and the operations it stands for.
struct Request {
  CallPlace created;
  const char *function = "";
  bool persistent = false;
  bool active = false;
  CallPlace started; // the MPI_Start that made a persistent request active
  bool cancelled = false;
  bool has_send = false, has_recv = false;
  P2pOp send_template, recv_template; // a persistent request's operations
  int64_t send = -1, recv = -1;       // the active operations (indices)
};

class RankWalk {
public:
  RankWalk(const reader::TraceFile &trace, const CommDirectory &comms, uint32_t rank)
      : comms_(comms), resolver_(trace, comms, rank), rank_(rank) {}

  void call(const Call &c, uint64_t index);
  void finish(bool full_check);
  const CommResolver &resolver() const { return resolver_; }
  void applied(const Call &c) { resolver_.applied(c); }
  RankOperations out;

private:
  P2pOp make_op(const Call &c, const char *peer_param, const char *tag_param, const char *buf_param,
                bool send);
  int64_t add_send(const P2pOp &op);
  int64_t add_recv(const P2pOp &op);
  void resolve_source(P2pOp &op, const StatusRef *status);
  void complete(uint64_t id, const StatusRef *status);
  void start(uint64_t id);
  void new_request(const Call &c, const P2pOp *send, const P2pOp *recv, bool persistent);
  void note(MatchFinding::Severity s, CallPlace where, std::string what) {
    out.findings.push_back({s, where, std::move(what)});
  }

  const CommDirectory &comms_;
  CommResolver resolver_;
  uint32_t rank_;
  CallPlace here_;
  uint64_t order_ = 0;
  bool failed_ = false;                            // the current call returned an error
  std::unordered_map<uint64_t, Request> requests_; // by user request id
  std::unordered_map<uint64_t, int64_t> messages_; // MPI_Mprobe'd message id -> recv
  int64_t last_cancelled_send_ = -1, last_cancelled_recv_ = -1;
};

P2pOp RankWalk::make_op(const Call &c, const char *peer_param, const char *tag_param,
                        const char *buf_param, bool send) {
  P2pOp op;
  op.post = op.complete = here_;
  op.order = order_++;
  op.function = c.name();
  if (const CallElement *h = first(c, "comm"))
    op.comm = resolver_.comm(h->handle);
  if (const CallElement *t = first(c, tag_param)) {
    op.any_tag = t->tag.any;
    op.tag = t->tag.tag;
  }
  op.bytes = buf_param ? buffer_bytes(c, buf_param) : -1;
  const CallElement *p = first(c, peer_param);
  if (!p) {
    op.peer = -2; // not recorded
    return op;
  }
  const RankRef &r = p->rank;
  if (r.kind == RankCode::ProcNull) {
    op.peer = -3; // no message
    return op;
  }
  if (!send && r.kind == RankCode::AnySource) {
    op.wildcard = true;
    return op;
  }
  op.peer_in_comm = r.rank;
  op.peer = comms_.peer_world(op.comm, rank_, r.rank);
  return op;
}

// Peers: -1 unknown, -2 unrecorded, -3 MPI_PROC_NULL (no message, not kept).
int64_t RankWalk::add_send(const P2pOp &op) {
  if (op.peer == -3 || failed_)
    return -1; // MPI_PROC_NULL; a call that returned an error sent nothing
  out.sends.push_back(op);
  return static_cast<int64_t>(out.sends.size() - 1);
}

int64_t RankWalk::add_recv(const P2pOp &op) {
  // A receive that returned an error took its message only if its peer is
  // valid (MPI_ERR_TRUNCATE: a buffer too small); otherwise it took nothing.
  if (op.peer == -3 || (failed_ && op.peer < 0))
    return -1;
  out.recvs.push_back(op);
  return static_cast<int64_t>(out.recvs.size() - 1);
}

void RankWalk::resolve_source(P2pOp &op, const StatusRef *status) {
  if (!op.wildcard || op.peer >= 0)
    return;
  if (!status || !status->has_source())
    return;
  if (status->source.kind == RankCode::ProcNull) {
    op.peer = -3;
    return;
  }
  op.peer_in_comm = status->source.rank;
  op.peer = comms_.peer_world(op.comm, rank_, status->source.rank);
}

void RankWalk::new_request(const Call &c, const P2pOp *send, const P2pOp *recv, bool persistent) {
  const CallElement *h = nullptr;
  const CallValue *v = out_value(c, "request");
  if (v && !v->null && !v->elements.empty())
    h = &v->elements[0];
  if (!h || !h->handle.user())
    return;
  Request r;
  r.created = here_;
  r.function = c.name();
  r.persistent = persistent;
  r.active = !persistent;
  if (send) {
    r.has_send = true;
    if (persistent)
      r.send_template = *send;
    else
      r.send = add_send(*send);
  }
  if (recv) {
    r.has_recv = true;
    if (persistent)
      r.recv_template = *recv;
    else
      r.recv = add_recv(*recv);
  }
  requests_[h->handle.id] = r;
}

void RankWalk::start(uint64_t id) {
  const auto it = requests_.find(id);
  if (it == requests_.end())
    return;
  Request &r = it->second;
  r.active = true;
  r.started = here_;
  r.cancelled = false;
  if (r.has_send) {
    P2pOp op = r.send_template;
    op.post = op.complete = here_;
    op.order = order_++;
    op.function = "MPI_Start";
    r.send = add_send(op);
  }
  if (r.has_recv) {
    P2pOp op = r.recv_template;
    op.post = op.complete = here_;
    op.order = order_++;
    op.function = "MPI_Start";
    r.recv = add_recv(op);
  }
}

void RankWalk::complete(uint64_t id, const StatusRef *status) {
  const auto it = requests_.find(id);
  if (it == requests_.end())
    return;
  Request &r = it->second;
  if (r.send >= 0) {
    P2pOp &op = out.sends[static_cast<size_t>(r.send)];
    op.complete = here_;
    op.completed = true;
    op.cancelled = r.cancelled;
    if (r.cancelled)
      last_cancelled_send_ = r.send;
  }
  if (r.recv >= 0) {
    P2pOp &op = out.recvs[static_cast<size_t>(r.recv)];
    op.complete = here_;
    op.completed = true;
    op.cancelled = r.cancelled;
    if (r.cancelled)
      last_cancelled_recv_ = r.recv;
    resolve_source(op, status);
  }
  r.send = r.recv = -1;
  r.active = false;
  r.cancelled = false;
  if (!r.persistent)
    requests_.erase(it);
}

void RankWalk::call(const Call &c, uint64_t index) {
  here_ = CallPlace{rank_, index};
  failed_ = c.return_code != 0; // not MPI_SUCCESS
  const std::string_view n = base_name(c.name());
  if (one_of(n, {"MPI_Send", "MPI_Bsend", "MPI_Ssend", "MPI_Rsend"})) {
    P2pOp op = make_op(c, "dest", "tag", "buf", true);
    op.completed = true;
    add_send(op);
  } else if (one_of(n, {"MPI_Isend", "MPI_Ibsend", "MPI_Issend", "MPI_Irsend"})) {
    const P2pOp op = make_op(c, "dest", "tag", "buf", true);
    new_request(c, &op, nullptr, false);
  } else if (one_of(n, {"MPI_Send_init", "MPI_Bsend_init", "MPI_Ssend_init", "MPI_Rsend_init"})) {
    const P2pOp op = make_op(c, "dest", "tag", "buf", true);
    new_request(c, &op, nullptr, true);
  } else if (n == "MPI_Recv") {
    P2pOp op = make_op(c, "source", "tag", "buf", false);
    op.completed = true;
    if (const CallElement *s = first(c, "status"))
      resolve_source(op, &s->status);
    add_recv(op);
  } else if (n == "MPI_Irecv") {
    const P2pOp op = make_op(c, "source", "tag", "buf", false);
    new_request(c, nullptr, &op, false);
  } else if (n == "MPI_Recv_init") {
    const P2pOp op = make_op(c, "source", "tag", "buf", false);
    new_request(c, nullptr, &op, true);
  } else if (n == "MPI_Sendrecv" || n == "MPI_Sendrecv_replace" || n == "MPI_Isendrecv" ||
             n == "MPI_Isendrecv_replace") {
    const bool replace = n.find("_replace") != std::string_view::npos;
    P2pOp s = make_op(c, "dest", "sendtag", replace ? "buf" : "sendbuf", true);
    P2pOp r = make_op(c, "source", "recvtag", replace ? "buf" : "recvbuf", false);
    if (n[4] == 'I') {
      new_request(c, &s, &r, false);
    } else {
      s.completed = r.completed = true;
      if (const CallElement *st = first(c, "status"))
        resolve_source(r, &st->status);
      add_send(s);
      add_recv(r);
    }
  } else if (n == "MPI_Mprobe" || n == "MPI_Improbe") {
    if (n == "MPI_Improbe" && integer_out(c, "flag", 0) == 0)
      return;
    const CallValue *m = out_value(c, "message");
    if (!m || m->null || m->elements.empty() || !m->elements[0].handle.user())
      return; // MPI_MESSAGE_NO_PROC: a probe of MPI_PROC_NULL
    P2pOp op = make_op(c, "source", "tag", nullptr, false);
    if (const CallElement *s = first(c, "status"))
      resolve_source(op, &s->status);
    messages_[m->elements[0].handle.id] = add_recv(op);
  } else if (n == "MPI_Mrecv" || n == "MPI_Imrecv") {
    const CallElement *m = nullptr;
    if (const CallArg *a = c.arg("message"))
      if (a->has_in && !a->in.null && !a->in.elements.empty())
        m = &a->in.elements[0];
    const auto it = m && m->handle.user() ? messages_.find(m->handle.id) : messages_.end();
    if (it == messages_.end())
      return;
    const int64_t r = it->second;
    messages_.erase(it);
    if (r < 0)
      return;
    P2pOp &op = out.recvs[static_cast<size_t>(r)];
    op.post = here_;
    op.function = c.name();
    op.bytes = buffer_bytes(c, "buf");
    if (n == "MPI_Mrecv") {
      op.complete = here_;
      op.completed = true;
    } else {
      const CallValue *v = out_value(c, "request");
      if (v && !v->null && !v->elements.empty() && v->elements[0].handle.user()) {
        Request q;
        q.created = here_;
        q.function = c.name();
        q.active = true;
        q.has_recv = true;
        q.recv = r;
        requests_[v->elements[0].handle.id] = q;
      }
    }
  } else if (n == "MPI_Start") {
    if (const CallElement *h = first(c, "request"))
      if (h->handle.user())
        start(h->handle.id);
  } else if (n == "MPI_Startall") {
    if (const CallArg *a = c.arg("array_of_requests"))
      if (const CallValue *v = a->any())
        for (const CallElement &e : v->elements)
          if (e.handle.user())
            start(e.handle.id);
  } else if (n == "MPI_Cancel") {
    if (const CallElement *h = first(c, "request"))
      if (h->handle.user()) {
        const auto it = requests_.find(h->handle.id);
        if (it != requests_.end())
          it->second.cancelled = true;
      }
  } else if (n == "MPI_Test_cancelled") {
    // MPI_Test_cancelled false on the status of the last cancelled request
    // completed: the cancel failed, the message went through.
    if (integer_out(c, "flag", 1) == 0) {
      if (last_cancelled_recv_ >= 0)
        out.recvs[static_cast<size_t>(last_cancelled_recv_)].cancelled = false;
      if (last_cancelled_send_ >= 0)
        out.sends[static_cast<size_t>(last_cancelled_send_)].cancelled = false;
    }
    last_cancelled_recv_ = last_cancelled_send_ = -1;
  } else if (n == "MPI_Request_free") {
    const CallElement *h = nullptr;
    if (const CallArg *a = c.arg("request"))
      if (a->has_in && !a->in.null && !a->in.elements.empty())
        h = &a->in.elements[0];
    if (h && h->handle.user()) {
      const auto it = requests_.find(h->handle.id);
      if (it != requests_.end()) {
        // An active operation completes unseen; its message still counts.
        const Request &r = it->second;
        if (r.send >= 0) {
          out.sends[static_cast<size_t>(r.send)].freed = true;
          out.sends[static_cast<size_t>(r.send)].complete = here_;
        }
        if (r.recv >= 0) {
          out.recvs[static_cast<size_t>(r.recv)].freed = true;
          out.recvs[static_cast<size_t>(r.recv)].complete = here_;
        }
        requests_.erase(it);
      }
    }
  } else if (one_of(n, {"MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test",
                        "MPI_Testall", "MPI_Testany", "MPI_Testsome"})) {
    const bool single = n == "MPI_Wait" || n == "MPI_Test";
    const CallArg *ra = c.arg(single ? "request" : "array_of_requests");
    const CallValue *reqs = nullptr;
    if (ra)
      reqs = ra->has_in ? &ra->in : ra->any();
    if (!reqs || reqs->null)
      return;
    const bool test = n[4] == 'T';
    if (test && n != "MPI_Testsome" && integer_out(c, "flag", 0) == 0)
      return;
    const CallValue *statuses = nullptr;
    if (const CallArg *sa = c.arg(
            single || n == "MPI_Waitany" || n == "MPI_Testany" ? "status" : "array_of_statuses"))
      statuses = sa->has_out ? &sa->out : sa->any();
    auto status_at = [&](size_t k) -> const StatusRef * {
      return statuses && k < statuses->elements.size() ? &statuses->elements[k].status : nullptr;
    };
    auto done = [&](size_t j, size_t k) {
      if (j < reqs->elements.size() && reqs->elements[j].handle.user())
        complete(reqs->elements[j].handle.id, status_at(k));
    };
    if (single || n == "MPI_Waitall" || n == "MPI_Testall") {
      for (size_t j = 0; j < reqs->elements.size(); ++j)
        done(j, j);
    } else if (n == "MPI_Waitany" || n == "MPI_Testany") {
      const int64_t i = integer_out(c, "index", -1);
      if (i >= 0)
        done(static_cast<size_t>(i), 0);
    } else {
      const CallValue *idx = out_value(c, "array_of_indices");
      if (idx && !idx->null)
        for (size_t k = 0; k < idx->elements.size(); ++k)
          if (idx->elements[k].integer >= 0)
            done(static_cast<size_t>(idx->elements[k].integer), k);
    }
  } else {
    // Any other call that creates requests (nonblocking collectives, I/O,
    // one-sided, generalized requests): followed to their completion.
    for (const CallArg &a : c.args) {
      if (!a.param || a.param->role != Role::Handle ||
          a.param->handle_kind != HandleKind::Request || a.param->action != HandleAction::Create ||
          !a.has_out || a.out.null)
        continue;
      for (const CallElement &e : a.out.elements)
        if (e.handle.user()) {
          Request r;
          r.created = here_;
          r.function = c.name();
          r.persistent = n.size() > 5 && n.substr(n.size() - 5) == "_init";
          r.active = !r.persistent;
          requests_[e.handle.id] = r;
        }
    }
  }
}

void RankWalk::finish(bool full_check) {
  for (const auto &[id, r] : requests_) {
    (void)id;
    if (r.active && r.cancelled) { // cancelled, never completed: no message either way
      if (r.send >= 0)
        out.sends[static_cast<size_t>(r.send)].cancelled = true;
      if (r.recv >= 0)
        out.recvs[static_cast<size_t>(r.recv)].cancelled = true;
    }
    if (!full_check)
      continue;
    if (r.active)
      note(MatchFinding::Severity::Error, r.persistent ? r.started : r.created,
           std::string(r.persistent ? "MPI_Start" : r.function) +
               ": request never completed (no MPI_Wait or MPI_Test completes it, no "
               "MPI_Request_free frees it)");
    else
      note(MatchFinding::Severity::Warning, r.created,
           std::string(r.function) + ": persistent request never freed");
  }
}

} // namespace

RankOperations collect_operations(const reader::TraceFile &trace, const CommDirectory &comms,
                                  uint32_t rank, bool full_check, TraceWalkObserver *observe) {
  RankWalk walk(trace, comms, rank);
  for (reader::CallCursor cur = trace.calls(rank); cur.next();) {
    const Call &c = cur.call();
    walk.call(c, cur.position());
    if (observe)
      observe->call(c, CallPlace{rank, cur.position()}, walk.resolver());
    walk.applied(c);
  }
  walk.finish(full_check);
  if (observe)
    observe->rank_done(rank);
  return std::move(walk.out);
}

} // namespace pilgrim
