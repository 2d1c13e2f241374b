#include "otf2_rank_events.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "otf2_archive.h"
#include "otf2_communicators.h"
#include "otf2_functions.h"
#include "otf2_requests.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim::exporter {

namespace {

const CallValue *value_of(const Call &call, const char *param, bool out = false) {
  const CallArg *a = call.arg(param);
  if (!a)
    return nullptr;
  const CallValue *v = out ? (a->has_out ? &a->out : nullptr) : a->any();
  return v && !v->null ? v : nullptr;
}

const CallElement *element(const Call &call, const char *param, bool out = false) {
  const CallValue *v = value_of(call, param, out);
  return v && !v->elements.empty() ? &v->elements[0] : nullptr;
}

// A rank argument as a rank in its communicator; -1 for sentinels and
// unknown ranks.
int64_t rank_of(const CallElement *e) {
  return e && !e->rank.sentinel() && e->rank.known() ? e->rank.rank : -1;
}

bool is_proc_null(const CallElement *e) { return e && e->rank.kind == RankCode::ProcNull; }

int64_t tag_of(const CallElement *e) { return e && !e->tag.any ? e->tag.tag : -1; }

uint32_t otf2_tag(int64_t tag) { return tag < 0 ? 0 : static_cast<uint32_t>(tag); }

bool has_count(const StatusRef &s) {
  return s.kind == sig::kStatusFull || s.kind == sig::kStatusCountOnly;
}

// The root argument as OTF2 says it (intercommunicators: MPI_ROOT is the
// root itself, MPI_PROC_NULL the other members of its group).
uint32_t root_of(const Call &call, bool rooted) {
  if (!rooted)
    return OTF2_COLLECTIVE_ROOT_NONE;
  const CallElement *e = element(call, "root");
  if (!e)
    return OTF2_COLLECTIVE_ROOT_NONE;
  if (e->rank.kind == RankCode::Root)
    return OTF2_COLLECTIVE_ROOT_SELF;
  if (e->rank.kind == RankCode::ProcNull)
    return OTF2_COLLECTIVE_ROOT_THIS_GROUP;
  return e->rank.known() ? static_cast<uint32_t>(e->rank.rank) : OTF2_COLLECTIVE_ROOT_NONE;
}

uint64_t bytes(const Call &call, BufferSide side) { return message_volume(call, side).bytes; }

class RankWriter {
public:
  RankWriter(OTF2_Archive *archive, const Otf2Run &run, uint32_t rank, Otf2Written &written)
      : archive_(archive), run_(run), trace_(*run.trace), rank_(rank), written_(written),
        timeline_(trace_, rank, run.time), comms_(trace_, *run.communicators, rank) {}

  void write_all() {
    for (reader::CallCursor c = trace_.calls(rank_); c.next();)
      write_call(c.call(), c.position());
    for (auto &[thread, loc] : locations_) {
      uint64_t n = 0;
      otf2_check(OTF2_EvtWriter_GetNumberOfEvents(loc.writer, &n), "counting events");
      written_.locations.push_back(Otf2Location{rank_, thread, loc.ref, n});
      otf2_check(OTF2_Archive_CloseEvtWriter(archive_, loc.writer), "closing an event writer");
    }
  }

private:
  struct Location {
    OTF2_LocationRef ref = 0;
    OTF2_EvtWriter *writer = nullptr;
    LocationClock clock;
  };

  Location &location(uint64_t thread) {
    const auto it = locations_.find(thread);
    if (it != locations_.end())
      return it->second;
    Location loc;
    loc.ref = otf2_location(rank_, thread, trace_.nranks());
    loc.writer = OTF2_Archive_GetEvtWriter(archive_, loc.ref);
    if (!loc.writer)
      throw Otf2Error("cannot open the event writer of rank " + std::to_string(rank_));
    return locations_.emplace(thread, loc).first->second;
  }

  const Otf2Function &function(const Call &call) {
    const auto it = functions_.find(call.function_id);
    if (it != functions_.end())
      return it->second;
    return functions_.emplace(call.function_id, otf2_function(call.name() ? call.name() : ""))
        .first->second;
  }

  // Whether `peer`, a rank of the call's communicator, names a process.
  bool valid_peer(const Call &call, int64_t peer) const {
    const HandleRef *h = comm_arg(call);
    return h && run_.communicators &&
           run_.communicators->peer_world(comms_.comm(*h), rank_, peer) >= 0;
  }

  // The call's first communicator argument that is not created by it.
  static const HandleRef *comm_arg(const Call &call) {
    for (const CallArg &a : call.args)
      if (a.param && a.role() == Role::Handle && a.param->handle_kind == HandleKind::Comm &&
          a.param->dir != Direction::Out && a.has_in && !a.in.null && !a.in.elements.empty())
        return &a.in.elements[0].handle;
    return nullptr;
  }

  // The communicator the call works on (comm_arg).
  OTF2_CommRef comm_of(const Call &call) const {
    const HandleRef *h = comm_arg(call);
    return h ? otf2_comm(comms_.comm(*h)) : OTF2_UNDEFINED_COMM;
  }

  // A collective's bytes sent and received by this rank: its send and
  // receive buffers (message_volume), per-peer counts times the
  // communicator's size, MPI_Bcast's buffer sent at the root and received
  // elsewhere.
  void collective_bytes(const Call &call, const Otf2Function &f, OTF2_CommRef comm, uint64_t &sent,
                        uint64_t &received) const {
    sent = bytes(call, BufferSide::Sent);
    received = bytes(call, BufferSide::Received);
    // MPI_Bcast's one buffer is sent by the root and received by the others.
    if (f.op == OTF2_COLLECTIVE_OP_BCAST)
      if (const CallElement *root = element(call, "root");
          root && root->rank.known() && root->rank.caller >= 0)
        (root->rank.caller == root->rank.rank ? received : sent) = 0;
    const uint64_t n = comm_size(comm);
    if (f.per_peer_sent)
      sent *= n;
    if (f.per_peer_received)
      received *= n;
  }

  uint64_t comm_size(OTF2_CommRef comm) const {
    if (comm == kOtf2CommWorld)
      return trace_.nranks();
    if (comm == kOtf2CommSelf || comm < 2)
      return 1;
    const CommInstance &c = run_.communicators->instances()[comm - 2];
    return c.inter ? 1 : c.members.size(); // intercommunicators: left per peer
  }

  uint64_t stamp(Location &loc, uint64_t ns) {
    const uint64_t t = loc.clock.at(ns);
    written_.first_ns = std::min(written_.first_ns, t);
    written_.last_ns = std::max(written_.last_ns, t);
    return t;
  }

  // A receive completed at call `call` (posted at `posted`): its time, no
  // earlier than its send's under lossy timing.
  uint64_t receive_time(uint64_t t1, uint64_t call, uint64_t posted) {
    if (run_.time != TimeKind::Lossy || !run_.floors)
      return t1;
    const uint64_t floor = run_.floors->floor(rank_, call, posted);
    if (floor > t1) {
      ++written_.clamped;
      return floor;
    }
    return t1;
  }

  void write_call(const Call &call, uint64_t i) {
    Location &loc = location(call.thread);
    OTF2_EvtWriter *w = loc.writer;
    const OTF2_RegionRef region = (*run_.regions)[call.function_id];
    const Otf2Function &f = function(call);
    const uint64_t t0 = stamp(loc, timeline_.start(i));
    const uint64_t end = timeline_.end(i);
    otf2_check(OTF2_EvtWriter_Enter(w, nullptr, t0, region), "writing Enter");
    // A send whose call returned an error sent nothing (the matcher's rule,
    // docs/CHECK.md): Enter and Leave only.
    const bool failed_send = call.return_code != 0;
    switch (f.kind) {
    case Otf2Kind::Send:
      if (!failed_send)
        write_send(loc, call, t0, "dest", "tag");
      break;
    case Otf2Kind::Recv:
      write_recv(loc, call, end, i);
      break;
    case Otf2Kind::Sendrecv:
      if (!failed_send)
        write_send(loc, call, t0, "dest", "sendtag");
      write_recv(loc, call, end, i);
      break;
    case Otf2Kind::Isend:
    case Otf2Kind::SendInit:
      if (!failed_send)
        write_post(loc, call, f.kind, t0, i);
      break;
    case Otf2Kind::Irecv:
    case Otf2Kind::RecvInit:
      write_post(loc, call, f.kind, t0, i);
      break;
    case Otf2Kind::Start:
      write_start(loc, call, t0, i);
      break;
    case Otf2Kind::MatchedProbe:
      take_message(call);
      break;
    case Otf2Kind::Mrecv:
    case Otf2Kind::Imrecv:
      write_message_recv(loc, call, f.kind == Otf2Kind::Mrecv, t0, end, i);
      break;
    case Otf2Kind::Completion:
      write_completion(loc, call, end, i);
      break;
    case Otf2Kind::Cancel:
      if (const CallElement *e = element(call, "request"); e && e->handle.user())
        if (LiveRequest *r = requests_.find(e->handle.id); r && r->active) {
          otf2_check(OTF2_EvtWriter_MpiRequestCancelled(w, nullptr, t0, r->otf2_id),
                     "writing MpiRequestCancelled");
          requests_.complete(e->handle.id);
        }
      break;
    case Otf2Kind::RequestFree:
      if (const CallElement *e = element(call, "request"); e && e->handle.user())
        requests_.erase(e->handle.id);
      break;
    case Otf2Kind::Collective:
    case Otf2Kind::CommCreate:
    case Otf2Kind::CommDestroy: {
      const OTF2_CommRef comm = comm_of(call);
      if (comm == OTF2_UNDEFINED_COMM) {
        ++written_.skipped;
        break;
      }
      uint64_t sent = 0, received = 0;
      if (f.kind == Otf2Kind::Collective)
        collective_bytes(call, f, comm, sent, received);
      otf2_check(OTF2_EvtWriter_MpiCollectiveBegin(w, nullptr, t0), "writing MpiCollectiveBegin");
      otf2_check(OTF2_EvtWriter_MpiCollectiveEnd(w, nullptr, stamp(loc, end), f.op, comm,
                                                 root_of(call, f.rooted), sent, received),
                 "writing MpiCollectiveEnd");
      break;
    }
    case Otf2Kind::NbCollective: {
      const CallElement *req = element(call, "request", true);
      const OTF2_CommRef comm = comm_of(call);
      if (!req || !req->handle.user() || comm == OTF2_UNDEFINED_COMM) {
        ++written_.skipped;
        break;
      }
      LiveRequest r;
      r.kind = LiveRequest::Kind::Collective;
      r.comm = comm;
      r.op = f.op;
      r.root = root_of(call, f.rooted);
      collective_bytes(call, f, comm, r.bytes, r.received);
      const uint64_t id = requests_.create(req->handle.id, r, i);
      otf2_check(OTF2_EvtWriter_NonBlockingCollectiveRequest(w, nullptr, t0, id),
                 "writing NonBlockingCollectiveRequest");
      break;
    }
    case Otf2Kind::Plain:
      break;
    }
    otf2_check(OTF2_EvtWriter_Leave(w, nullptr, stamp(loc, end), region), "writing Leave");
    comms_.applied(call);
  }

  void write_send(Location &loc, const Call &call, uint64_t t0, const char *dest_param,
                  const char *tag_param) {
    const CallElement *dest = element(call, dest_param);
    if (is_proc_null(dest))
      return;
    const OTF2_CommRef comm = comm_of(call);
    const int64_t to = rank_of(dest);
    if (comm == OTF2_UNDEFINED_COMM || to < 0) {
      ++written_.skipped;
      return;
    }
    otf2_check(OTF2_EvtWriter_MpiSend(loc.writer, nullptr, t0, static_cast<uint32_t>(to), comm,
                                      otf2_tag(tag_of(element(call, tag_param))),
                                      bytes(call, BufferSide::Sent)),
               "writing MpiSend");
  }

  // MPI_Recv and MPI_Sendrecv's receive: from the status's sender (a
  // wildcard receive's recorded match), else the source argument.
  void write_recv(Location &loc, const Call &call, uint64_t end, uint64_t i) {
    const CallElement *source = element(call, "source");
    if (is_proc_null(source))
      return;
    const CallElement *st = element(call, "status", true);
    const StatusRef status = st ? st->status : StatusRef{};
    int64_t from = rank_of(source);
    if (status.has_source()) {
      if (status.source.kind == RankCode::ProcNull)
        return;
      from = status.source.known() && !status.source.sentinel() ? status.source.rank : -1;
    }
    const OTF2_CommRef comm = comm_of(call);
    if (comm == OTF2_UNDEFINED_COMM || from < 0) {
      ++written_.skipped;
      return;
    }
    // A receive that returned an error took a message only if its peer is
    // valid (MPI_ERR_TRUNCATE); from a rank outside the communicator it took
    // nothing (the matcher's rule, docs/CHECK.md).
    if (call.return_code != 0 && !valid_peer(call, from))
      return;
    const char *tag_param = call.arg("recvtag") ? "recvtag" : "tag";
    const int64_t tag = status.kind == sig::kStatusFull && !status.tag.any
                            ? status.tag.tag
                            : tag_of(element(call, tag_param));
    const uint64_t size = has_count(status) && status.count_bytes >= 0
                              ? static_cast<uint64_t>(status.count_bytes)
                              : bytes(call, BufferSide::Received);
    otf2_check(OTF2_EvtWriter_MpiRecv(loc.writer, nullptr, stamp(loc, receive_time(end, i, i)),
                                      static_cast<uint32_t>(from), comm, otf2_tag(tag), size),
               "writing MpiRecv");
  }

  // MPI_Mprobe, MPI_Improbe: the message handle stands for the probed
  // message (its communicator, sender, tag and size) until it is received.
  void take_message(const Call &call) {
    const CallElement *msg = element(call, "message", true);
    const CallElement *st = element(call, "status", true);
    if (!msg || !msg->handle.user() || !st)
      return;
    LiveRequest m;
    m.kind = LiveRequest::Kind::Recv;
    m.comm = comm_of(call);
    const StatusRef &status = st->status;
    m.peer = status.has_source() && status.source.known() && !status.source.sentinel()
                 ? status.source.rank
                 : rank_of(element(call, "source"));
    m.tag = status.kind == sig::kStatusFull && !status.tag.any ? status.tag.tag
                                                               : tag_of(element(call, "tag"));
    m.bytes = has_count(status) && status.count_bytes >= 0
                  ? static_cast<uint64_t>(status.count_bytes)
                  : 0;
    messages_[msg->handle.id] = m;
  }

  // MPI_Mrecv (an MpiRecv) and MPI_Imrecv (an MpiIrecvRequest, completed
  // like MPI_Irecv's) of a probed message.
  void write_message_recv(Location &loc, const Call &call, bool blocking, uint64_t t0, uint64_t end,
                          uint64_t i) {
    const CallElement *msg = element(call, "message");
    const auto it = msg && msg->handle.user() ? messages_.find(msg->handle.id) : messages_.end();
    if (it == messages_.end())
      return; // MPI_MESSAGE_NO_PROC, or a message probed before the trace knew it
    LiveRequest m = it->second;
    messages_.erase(it);
    if (m.peer < 0 || m.comm == OTF2_UNDEFINED_COMM) {
      ++written_.skipped;
      return;
    }
    if (blocking) {
      otf2_check(OTF2_EvtWriter_MpiRecv(loc.writer, nullptr, stamp(loc, receive_time(end, i, i)),
                                        static_cast<uint32_t>(m.peer), m.comm, otf2_tag(m.tag),
                                        m.bytes),
                 "writing MpiRecv");
      return;
    }
    const CallElement *req = element(call, "request", true);
    if (!req || !req->handle.user())
      return;
    const uint64_t id = requests_.create(req->handle.id, m, i);
    write_started(loc, m, id, t0);
  }

  // MPI_Isend, MPI_Irecv and the persistent inits: the request's record.
  void write_post(Location &loc, const Call &call, Otf2Kind kind, uint64_t t0, uint64_t i) {
    const CallElement *req = element(call, "request", true);
    const bool send = kind == Otf2Kind::Isend || kind == Otf2Kind::SendInit;
    const CallElement *peer = element(call, send ? "dest" : "source");
    if (!req || !req->handle.user())
      return;
    LiveRequest r;
    r.kind = send ? LiveRequest::Kind::Send : LiveRequest::Kind::Recv;
    r.persistent = kind == Otf2Kind::SendInit || kind == Otf2Kind::RecvInit;
    r.comm = comm_of(call);
    r.peer = is_proc_null(peer) ? -2 : rank_of(peer);
    r.tag = tag_of(element(call, "tag"));
    r.bytes = bytes(call, send ? BufferSide::Sent : BufferSide::Received);
    const uint64_t id = requests_.create(req->handle.id, r, i);
    if (!r.persistent)
      write_started(loc, r, id, t0);
  }

  void write_start(Location &loc, const Call &call, uint64_t t0, uint64_t i) {
    const CallValue *v = value_of(call, call.arg("request") ? "request" : "array_of_requests");
    if (!v)
      return;
    for (const CallElement &e : v->elements)
      if (e.handle.user())
        if (LiveRequest *r = requests_.start(e.handle.id, i))
          write_started(loc, *r, r->otf2_id, t0);
  }

  void write_started(Location &loc, const LiveRequest &r, uint64_t id, uint64_t t0) {
    if (r.peer == -2)
      return; // MPI_PROC_NULL: no message
    if (r.kind == LiveRequest::Kind::Send) {
      if (r.comm == OTF2_UNDEFINED_COMM || r.peer < 0) {
        ++written_.skipped;
        return;
      }
      otf2_check(OTF2_EvtWriter_MpiIsend(loc.writer, nullptr, t0, static_cast<uint32_t>(r.peer),
                                         r.comm, otf2_tag(r.tag), r.bytes, id),
                 "writing MpiIsend");
    } else {
      otf2_check(OTF2_EvtWriter_MpiIrecvRequest(loc.writer, nullptr, t0, id),
                 "writing MpiIrecvRequest");
    }
  }

  // MPI_Wait*, MPI_Test*: every request they completed gets its completion
  // event, in request order, at the call's end.
  void write_completion(Location &loc, const Call &call, uint64_t end, uint64_t i) {
    size_t req_param = call.args.size();
    for (size_t p = 0; p < call.args.size(); ++p)
      if (call.args[p].role() == Role::Handle &&
          call.args[p].param->handle_kind == HandleKind::Request)
        req_param = p;
    if (req_param == call.args.size())
      return;
    const CallArg &ra = call.args[req_param];
    if (!ra.has_in || ra.in.null)
      return;
    // Each completed request's status.
    std::unordered_map<uint64_t, StatusRef> statuses;
    for (size_t p = 0; p < call.args.size(); ++p) {
      if (call.args[p].role() != Role::Status || !call.args[p].has_out || call.args[p].out.null)
        continue;
      const std::vector<CallElement> &els = call.args[p].out.elements;
      for (size_t e = 0; e < els.size(); ++e)
        if (const CallElement *req = status_request(call, p, e); req && req->handle.user())
          statuses[req->handle.id] = els[e].status;
    }
    const std::string_view name = call.name();
    const bool all = name.find("all") != std::string_view::npos;
    const bool some = name.find("some") != std::string_view::npos;
    const bool any = name.find("any") != std::string_view::npos;
    const bool test = name.substr(0, 8) == "MPI_Test";
    const CallElement *flag = element(call, "flag", true);
    const CallElement *index = element(call, "index", true);
    const CallValue *indices = value_of(call, "array_of_indices", true);
    for (size_t k = 0; k < ra.in.elements.size(); ++k) {
      const HandleRef &h = ra.in.elements[k].handle;
      if (!h.user())
        continue;
      LiveRequest *r = requests_.find(h.id);
      if (!r || !r->active)
        continue;
      bool done;
      if (ra.has_out && k < ra.out.elements.size() && ra.out.elements[k].handle.null())
        done = true; // MPI set it to MPI_REQUEST_NULL
      else if (some)
        done = indices && std::any_of(indices->elements.begin(), indices->elements.end(),
                                      [&](const CallElement &x) {
                                        return x.integer == static_cast<int64_t>(k);
                                      });
      else if (any)
        done = index && index->integer == static_cast<int64_t>(k);
      else if (test)
        done = flag && flag->integer != 0;
      else
        done = all || !test;
      if (!done)
        continue;
      const auto st = statuses.find(h.id);
      write_completed(loc, *r, st == statuses.end() ? StatusRef{} : st->second, end, i);
      requests_.complete(h.id);
    }
  }

  void write_completed(Location &loc, const LiveRequest &r, const StatusRef &status, uint64_t end,
                       uint64_t i) {
    OTF2_EvtWriter *w = loc.writer;
    switch (r.kind) {
    case LiveRequest::Kind::Send:
      if (r.peer >= 0 && r.comm != OTF2_UNDEFINED_COMM)
        otf2_check(OTF2_EvtWriter_MpiIsendComplete(w, nullptr, stamp(loc, end), r.otf2_id),
                   "writing MpiIsendComplete");
      return;
    case LiveRequest::Kind::Recv: {
      if (r.peer == -2)
        return;
      int64_t from = r.peer;
      if (status.has_source()) {
        if (status.source.kind == RankCode::ProcNull)
          return;
        from = status.source.known() && !status.source.sentinel() ? status.source.rank : -1;
      }
      if (from < 0 || r.comm == OTF2_UNDEFINED_COMM) {
        ++written_.skipped;
        return;
      }
      const int64_t tag =
          status.kind == sig::kStatusFull && !status.tag.any ? status.tag.tag : r.tag;
      const uint64_t size = has_count(status) && status.count_bytes >= 0
                                ? static_cast<uint64_t>(status.count_bytes)
                                : r.bytes;
      otf2_check(OTF2_EvtWriter_MpiIrecv(w, nullptr, stamp(loc, receive_time(end, i, r.posted)),
                                         static_cast<uint32_t>(from), r.comm, otf2_tag(tag), size,
                                         r.otf2_id),
                 "writing MpiIrecv");
      return;
    }
    case LiveRequest::Kind::Collective:
      otf2_check(OTF2_EvtWriter_NonBlockingCollectiveComplete(w, nullptr, stamp(loc, end), r.op,
                                                              r.comm, r.root, r.bytes, r.received,
                                                              r.otf2_id),
                 "writing NonBlockingCollectiveComplete");
      return;
    }
  }

  OTF2_Archive *archive_;
  const Otf2Run &run_;
  const reader::TraceFile &trace_;
  uint32_t rank_;
  Otf2Written &written_;
  RankTimeline timeline_;
  CommResolver comms_;
  RequestTable requests_;
  std::unordered_map<uint64_t, LiveRequest> messages_; // probed, not yet received
  std::map<uint64_t, Location> locations_;
  std::unordered_map<uint16_t, Otf2Function> functions_;
};

} // namespace

void write_rank_events(OTF2_Archive *archive, const Otf2Run &run, uint32_t rank,
                       Otf2Written &written) {
  RankWriter(archive, run, rank, written).write_all();
}

} // namespace pilgrim::exporter
