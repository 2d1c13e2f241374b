// The per-role encoders. Every role has one encoder; the byte layouts are the
// signature encoding of docs/FORMAT.md.
#include "call_inline.h"

#include "callback_records.h"
#include "pilgrim/cartesian_offset.h"
#include "pilgrim/signature_encoding.h"
#include "sites/plugin_sites.h"
#include "recorder.h"

#include <cstring>

namespace pilgrim::rt {
namespace {

constexpr uint64_t kRankAnySource = 0, kRankProcNull = 1, kRankRoot = 2, kRankUndefined = 3;

// A status's count in bytes at full width (MPI_Count: PMPI_Get_count's int
// says MPI_UNDEFINED above 2^31 - 1 bytes); -1 if MPI cannot say.
int64_t status_bytes(const MPI_Status *st) {
  MPI_Count bytes = 0;
  PMPI_Get_elements_x(st, MPI_BYTE, &bytes);
  return bytes == MPI_UNDEFINED ? -1 : static_cast<int64_t>(bytes);
}

inline uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

Recorder &rec() { return Recorder::get(); }

} // namespace

__thread ThreadState *tls_thread_state __attribute__((tls_model("initial-exec"))) = nullptr;

ThreadState &make_thread_state() {
  static thread_local ThreadState ts;
  tls_thread_state = &ts;
  return ts;
}

// The constructor past its fast path (slow_calls.h, ThreadState::rare):
// before MPI_Init, tracing off, after MPI_Finalize, MPI_THREAD_MULTIPLE,
// plugin-built code's site ids, or the thread's first call.
void Call::begin_slow_() {
  Recorder &r = rec();
  // The site key: the one a caller inside the tracer set for the
  // application's call (the Fortran glue's return address), else the
  // wrapper's return address (call_sites.h). A plugin-built caller stored
  // its site's id just before the call (plugin_sites.h): it takes the
  // return address's place, tagged.
  if (ts_->rare & ThreadState::kRareSiteOverride) {
    site_ = ts_->site_override;
    ts_->clear_site_override();
  }
  if (plugin_sites::any_registered())
    if (const uint64_t id = plugin_sites::take_current())
      site_ = id | kPluginSiteTag;
  State s = r.state.load(std::memory_order_acquire);
  if (s == State::Recording) {
    active_ = true;
    site_ &= r.sites_mask;
  } else if (s == State::Paused) {
    // Tracing is off: what the region rule may record goes on (regions.h).
    active_ = r.region_rule(fid_) != RegionRule::Traffic;
    paused_ = true;
    ts_->kept_while_off = active_;
    site_ &= r.sites_mask;
  } else if (s == State::BeforeInit) {
    active_ = fid_ == r.id_init || fid_ == r.id_init_thread;
  }
  if (!active_)
    return;
  if (r.multithreaded) {
    r.lock.lock();
    locked_ = true;
  }
  if (ts_->rare & ThreadState::kRareNoThreadId) {
    static std::atomic<uint32_t> next_tid{0};
    ts_->tid = next_tid++;
    ts_->rare = static_cast<uint8_t>(ts_->rare & ~ThreadState::kRareNoThreadId);
  }
  ts_->start_call(fid_);
}

Call::Call(uint16_t function_id, Nested) noexcept
    : ts_(&thread_state()), buf_(&ts_->nested_sig), fid_(function_id), nested_(true) {
  Recorder &r = rec();
  const State s = r.state.load(std::memory_order_acquire);
  if (ts_->depth == 0 || ts_->in_nested ||
      !(s == State::Recording || (s == State::Paused && ts_->kept_while_off)))
    return;
  active_ = true;
  ts_->in_nested = true;
  if (r.multithreaded) {
    r.lock.lock();
    locked_ = true;
  }
  buf_->clear();
  buf_->put_varint(fid_);
  buf_->put_varint(ts_->tid);
}

void Call::end_slow_() {
  if (locked_)
    rec().lock.unlock();
  if (nested_) {
    if (active_) // never finished: the record is dropped
      ts_->in_nested = false;
    return;
  }
  --ts_->depth;
}

// A nested record takes no time of its own: the enclosing call's duration
// holds it.
void Call::handle_seen_key_(HandleKind k, uint64_t key) {
  buf().put_varint(Recorder::active().handles[static_cast<int>(k)].encode_seen(key));
}

void Call::finish_nested(int64_t rc) {
  if (!active_)
    return;
  Recorder &r = rec();
  int64_t now = 0;
  stamp(r.call_clock, now);
  buf_->put_zigzag(rc);
  buf_->put_bytes(&site_, sizeof site_); // 0: MPI called it, not the application
  r.record(buf_->data(), buf_->size(), now, now);
  active_ = false;
  ts_->in_nested = false;
}

void Call::start_finalize() {
  Recorder &r = rec();
  stamp(r.call_clock, ts_->t0);
  // The trace is written before MPI goes away; MPI_Finalize itself is the
  // last call recorded, with the return code it is expected to have.
  ts_->t1 = ts_->t0;
  finish(MPI_SUCCESS);
  active_ = false;
  if (locked_) {
    r.lock.unlock();
    locked_ = false;
  }
  r.on_finalize();
}

void Call::stop_init() {
  stop();
  Recorder &r = rec();
  if (r.state.load(std::memory_order_relaxed) == State::BeforeInit) {
    r.on_init();
    if (r.multithreaded && !locked_) {
      r.lock.lock();
      locked_ = true;
    }
  }
}

// finish() past its fast path: the call created requests, holds buffers or
// memory, or claimed request entries.
void Call::finish_slow_(int64_t rc) {
  Recorder &r = rec();
  SignatureBuffer &b = ts_->sig;
  // Requests made while tracing is off by a call it does not keep are the off
  // region's: a pool of their own, which the trace never names, so that the
  // ids of the on region's requests are those a proxy without them draws;
  // they hold no buffers (ids of the on region's buffers stay the same too).
  const bool off_region = paused_ && r.region_rule(fid_) != RegionRule::Kept;
  // Requests created by this call: their pool is keyed by everything else.
  // The first one holds the call's buffers until it is gone.
  size_t prefix = b.size();
  bool buffers_handed_over = false;
  for (int i = 0; i < ts_->ndeferred; ++i) {
    const auto &d = ts_->deferred[i];
    if (!d.where) {
      b.put_varint(0);
      continue;
    }
    uint64_t key = handle_key(*d.where);
    if (key == handle_key(MPI_REQUEST_NULL)) {
      b.put_varint(2); // one element: the null request
      b.put_varint(0);
      continue;
    }
    ReqInfo info = d.info;
    if (off_region) {
      info.off = true;
      r.requests.create(key, d.where, nullptr, 0, info, nullptr, 0);
      b.put_varint(2);
      b.put_varint(0);
      continue;
    }
    const int nheld = buffers_handed_over ? 0 : ts_->nheld;
    info.idup = r.agreements.started_idup(); // its completion lets the agreement resolve
    uint64_t id = r.requests.create(key, d.where, b.data(), prefix, info, ts_->held, nheld);
    buffers_handed_over = true;
    b.put_varint(2);
    b.put_varint(2 * id + 2);
  }
  if (buffers_handed_over)
    ts_->nheld = 0; // the request holds them until it is gone
  b.put_zigzag(rc);
  const bool recorded = recorded_by_region_rule_();
  r.requests.unclaim_all();
  if (recorded) {
    b.put_bytes(&site_, sizeof site_);
    r.record(b.data(), b.size(), ts_->t0, ts_->t1);
  }
  hold_memory_(rc);
  active_ = false;
}

// Whether the region rule (regions.h) records this call: a call it keeps
// always; a call on requests, with tracing on, unless every request it
// names is the off region's; with tracing off, if one of them is the on
// region's; any other call only with tracing on.
bool Call::recorded_by_region_rule_() const {
  const Recorder &r = Recorder::active();
  if (r.region_rule(fid_) == RegionRule::Kept)
    return true;
  bool on_region = false, off_region = false;
  for (const RequestSlot &s : ts_->slots) {
    if (s.entry == RequestRegistry::kNone)
      continue;
    (s.info.off ? off_region : on_region) = true;
  }
  return paused_ ? on_region : on_region || !off_region;
}

// What the call's buffers and memory become once it returned: released, or
// held until MPI frees them (memory_holds.h), or kept for the run.
void Call::hold_memory_(int64_t rc) {
  Recorder &r = rec();
  const bool ok = rc == MPI_SUCCESS;
  if (memory_ && (!ok || memory_bytes_ <= 0 || !r.memory.hold(memory_, has_win_, win_key_)))
    r.addresses.release(memory_);
  if (ts_->nheld == 0)
    return;
  const Recorder::MemoryEffect effect = r.memory_effect(fid_);
  for (int i = 0; i < ts_->nheld; ++i) {
    const void *p = ts_->held[i];
    if (effect == Recorder::MemoryEffect::KeepsBuffers)
      r.addresses.pin(p);
    else if (effect != Recorder::MemoryEffect::WindowBase || !ok || !has_win_ ||
             !r.memory.hold(p, true, win_key_))
      r.addresses.release(p);
  }
}

// --- scalars -------------------------------------------------------------------

void Call::dbls(const double *p, int64_t n) {
  if (!p || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  buf().put_bytes(p, static_cast<size_t>(n) * sizeof(double));
}

void Call::tag(int t) { buf().put_varint(t == MPI_ANY_TAG ? 0 : 1 + zigzag(t)); }

void Call::tags(const int *p, int64_t n) {
  if (!p || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i)
    tag(p[i]);
}

// relative_code() in a Cartesian communicator whose grid is current: the
// peer's displacement in the grid, when it is on the grid.
bool Call::cartesian_code_(int r, RankCtx ctx, uint64_t &code) {
  if (!rec().settings.cartesian_ranks || !rec().comms.cart_current(ctx))
    return false;
  const CartFacts &g = rec().comms.cart(ctx.cart);
  int64_t y = 0;
  if (!cart_encode(g.ndims, g.dims, g.periods, ctx.rank, r, y))
    return false;
  code = sig::rank_cartesian(y);
  return true;
}

// rank() for r < 0: a special rank, or else a negative one stored as given.
uint64_t Call::negative_rank_code_(int r, RankCtx ctx, bool relative) {
  if (r == MPI_ANY_SOURCE)
    return kRankAnySource;
  if (r == MPI_PROC_NULL)
    return kRankProcNull;
  if (r == MPI_ROOT)
    return kRankRoot;
  if (r == MPI_UNDEFINED)
    return kRankUndefined;
  if (relative && ctx.rank >= 0 && rec().settings.relative_ranks)
    return relative_code(r, ctx);
  return 4 + 2 * zigzag(r);
}

bool Call::is_special_int_array(const int *p) {
  return p == MPI_UNWEIGHTED || p == MPI_WEIGHTS_EMPTY;
}

void Call::special_int_array(const int *p) {
  // MPI_UNWEIGHTED is stored as an absent array, MPI_WEIGHTS_EMPTY as an empty one.
  buf().put_varint(p == MPI_UNWEIGHTED ? 0 : 1);
}

// --- handles -------------------------------------------------------------------

void Call::create_key_(HandleKind k, uint64_t key) {
  uint64_t enc = rec().handles[static_cast<int>(k)].create(key);
  buf().put_varint(enc);
  if (k == HandleKind::Keyval)
    bind_recorded_callbacks(key); // the callbacks this call wrapped are the keyval's
  if (k == HandleKind::Comm && enc != 0)
    rec().comms.set_encoded_id(handle_from_key<MPI_Comm>(key), enc);
}

void Call::create_agreed_(HandleKind k, uint64_t key, MPI_Comm parent) {
  rec().agreements.on_create(k, key, parent, fid_, locked_, buf());
  if (k == HandleKind::Win) {
    has_win_ = true;
    win_key_ = key;
  }
}

void Call::release_key_(HandleKind k, uint64_t key) {
  rec().handles[static_cast<int>(k)].release(key);
  if (k == HandleKind::Comm)
    rec().comms.forget(key);
  if (k == HandleKind::Win)
    rec().memory.end_window(rec().addresses, key); // its memory's ids are free again
}

void Call::note_comm(MPI_Comm c) {
  if (c != MPI_COMM_NULL)
    rec().comms.forget(handle_key(c)); // a recycled handle value: facts are stale
}

// One request before the call, held in the application's variable `where`
// (nullptr for a request passed by value: any entry with its value will do).
void Call::request_element(const MPI_Request *where, MPI_Request req) {
  Recorder &r = rec();
  uint64_t key = handle_key(req);
  RequestSlot slot{RequestRegistry::kNone, key, ReqInfo{}};
  if (key == handle_key(MPI_REQUEST_NULL)) {
    buf().put_varint(0);
  } else {
    uint32_t e = r.requests.find(key, where);
    if (e == RequestRegistry::kNone)
      e = r.requests.adopt(key, where);
    slot.entry = e;
    slot.info = r.requests.info(e);
    // The off region's requests are never named (regions.h).
    buf().put_varint(slot.info.off ? 0 : 2 * r.requests.id(e) + 2);
  }
  ts_->slots.push_back(slot);
}

void Call::request(MPI_Request r) { request_element(nullptr, r); }

void Call::requests_in(const MPI_Request *p, int64_t n) {
  if (!p || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i)
    request_element(p + i, p[i]);
}

void Call::requests_out(const MPI_Request *p, int64_t n) {
  if (!p || n < 0) {
    buf().put_varint(0);
    return;
  }
  Recorder &r = rec();
  const uint64_t null_key = handle_key(MPI_REQUEST_NULL);
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t key = handle_key(p[i]);
    const RequestSlot *slot =
        static_cast<size_t>(i) < ts_->slots.size() ? &ts_->slots[static_cast<size_t>(i)] : nullptr;
    if (key == null_key) {
      buf().put_varint(0);
      if (slot && slot->entry != RequestRegistry::kNone) {
        r.requests.release(slot->entry, r.addresses); // completed and freed by MPI
        if (slot->info.idup)
          r.agreements.idup_completed(slot->info.idup);
      }
    } else if (slot && slot->entry != RequestRegistry::kNone && slot->before_key == key) {
      // still active, or persistent; the off region's as MPI_REQUEST_NULL
      buf().put_varint(slot->info.off ? 0 : 2 * r.requests.id(slot->entry) + 2);
    } else {
      uint32_t e = r.requests.find(key, p + i);
      if (e == RequestRegistry::kNone)
        e = r.requests.adopt(key, p + i);
      buf().put_varint(2 * r.requests.id(e) + 2);
    }
  }
}

void Call::request_create(const MPI_Request *p, const ReqInfo &info) {
  if (ts_->ndeferred < 4)
    ts_->deferred[ts_->ndeferred++] = {p, info};
}

// --- addresses, strings, callbacks -----------------------------------------------

void Call::buffer(const void *p) { buf().put_varint(buffer_code(p)); }

uint64_t Call::buffer_code(const void *p) {
  uint64_t v;
  if (p == MPI_IN_PLACE)
    v = 1;
  else if (p == nullptr)
    v = 0;
  else if (p == MPI_BOTTOM)
    v = 2;
  else {
    Recorder &r = rec();
    v = 3 + static_cast<uint64_t>(r.addresses.acquire(p));
    if (ts_->nheld < ThreadState::kMaxHeld)
      ts_->held[ts_->nheld++] = p;
    else
      r.addresses.pin(p); // more buffers than a call can have: keep it
  }
  return v;
}

void Call::pointer(const void *p) {
  Recorder &r = rec();
  if (p && r.memory_effect(fid_) == Recorder::MemoryEffect::FreesMemory &&
      ts_->nheld < ThreadState::kMaxHeld) {
    // MPI_Free_mem: the address keeps its id until the call returns, then
    // the id is free.
    buf().put_varint(1 + r.addresses.acquire(p));
    ts_->held[ts_->nheld++] = p;
    r.memory.end_allocation(r.addresses, p);
    return;
  }
  if (!p) {
    buf().put_varint(0);
    return;
  }
  AddressRegistry &a = r.addresses;
  const size_t anchors = a.anchors().size();
  buf().put_varint(1 + a.pin(p));
  if (a.anchors().size() > anchors)
    new_anchor_ = reinterpret_cast<uintptr_t>(p); // first pinned here (address_anchors.h)
}

void Call::memory_out(const void *p, int64_t bytes) {
  const void *memory = p ? *static_cast<void *const *>(p) : nullptr;
  if (!memory) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(1 + rec().addresses.acquire(memory));
  if (memory_) // a second allocation in one call (none in MPI): its use ends with the call
    rec().addresses.release(memory_);
  memory_ = memory;
  memory_bytes_ = bytes;
}

void Call::string(const char *s) {
  if (!s) {
    buf().put_varint(0);
    return;
  }
  size_t n = std::strlen(s);
  buf().put_varint(n + 1);
  buf().put_bytes(s, n);
}

void Call::string_array(char *const *a, int64_t n) {
  if (!a || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i)
    string(a[i]);
}

void Call::argv_array(char **const *a, int64_t n) {
  if (!a || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i)
    string_array(a[i], len_nullterm(a[i]));
}

void Call::callback(const void *fn, const char *type) {
  if (!fn) {
    buf().put_varint(0);
    return;
  }
  Recorder &r = rec();
  if (const uint32_t *k = r.callbacks.predefined(fn)) {
    uint32_t index = *k;
    for (const PredefinedCallback &c : r.predefined_callbacks)
      if (c.fn == fn && std::strcmp(c.type, type) == 0) {
        index = c.index;
        break;
      }
    buf().put_varint(2ull * index + 1);
    return;
  }
  buf().put_varint(2ull * r.callbacks.pin(fn) + 2);
}

// --- statuses --------------------------------------------------------------------

void Call::status_one(const MPI_Status *st, int slot, const StatusCtx &ctx, bool completed,
                      bool ignored) {
  // `ignored`: `st` is the tracer's own (keep_source), the application
  // passed MPI_STATUS_IGNORE: kind 0, or kind 5 with what a wildcard
  // matched.
  const uint64_t empty = ignored ? sig::kStatusIgnored : sig::kStatusEmpty;
  if (!completed) {
    buf().put_varint(empty);
    return;
  }
  ReqInfo info;
  switch (ctx.mode) {
  case StatusCtx::FromCall:
    info = ctx.from_call;
    break;
  case StatusCtx::None:
    break;
  case StatusCtx::CountOnly:
    status_count_only(st);
    return;
  default:
    if (slot < 0 || static_cast<size_t>(slot) >= ts_->slots.size() ||
        ts_->slots[static_cast<size_t>(slot)].entry == RequestRegistry::kNone ||
        ts_->slots[static_cast<size_t>(slot)].info.off) {
      // an inactive request, or the off region's (written as null): an empty status
      buf().put_varint(empty);
      return;
    }
    info = ts_->slots[static_cast<size_t>(slot)].info;
    if (info.is_file && !ignored) {
      status_count_only(st); // a nonblocking file operation's completion
      return;
    }
    if (!info.is_p2p || !info.receive) {
      buf().put_varint(empty); // sends and collectives: nothing to keep
      return;
    }
  }
  // A status's source is relative to the caller's rank in the call's
  // communicator when the call has one (Recv, Probe), else in the
  // communicator of the request it completes (Wait*, Test*: the context
  // noted when the request was created, Cartesian where that communicator
  // has a grid; format version 3), and in a call with neither (MPI_Mrecv)
  // to its rank in MPI_COMM_WORLD.
  if (ctx.mode == StatusCtx::None)
    info.ctx = comm_ctx(MPI_COMM_WORLD);
  if (ignored) {
    if (info.is_p2p && (info.peer == MPI_ANY_SOURCE || info.tag == MPI_ANY_TAG)) {
      buf().put_varint(sig::kStatusMatchKept);
      rank(st->MPI_SOURCE, info.ctx, true);
      tag(st->MPI_TAG);
      buf().put_zigzag(status_bytes(st));
    } else {
      buf().put_varint(sig::kStatusIgnored);
    }
    return;
  }
  if (info.is_p2p && info.peer != MPI_ANY_SOURCE && info.tag != MPI_ANY_TAG) {
    status_count_only(st);
    return;
  }
  buf().put_varint(sig::kStatusFull);
  rank(st->MPI_SOURCE, info.ctx, true);
  tag(st->MPI_TAG);
  buf().put_zigzag(status_bytes(st));
}

void Call::status_count_only(const MPI_Status *st) {
  buf().put_varint(sig::kStatusCountOnly);
  buf().put_zigzag(status_bytes(st));
}

void Call::status(const MPI_Status *st, const StatusCtx &ctx) {
  const bool ignored = st == private_status_;
  if (st == MPI_STATUS_IGNORE || !st) { // NULL: MPICH's MPI_STATUS_IGNORE is not NULL
    buf().put_varint(sig::kStatusIgnored);
    return;
  }
  bool completed = !(ctx.flag && *ctx.flag == 0);
  int slot = 0;
  if (ctx.mode == StatusCtx::Single) {
    slot = ctx.index ? *ctx.index : MPI_UNDEFINED;
    if (slot == MPI_UNDEFINED)
      completed = false;
  }
  status_one(st, slot, ctx, completed, ignored);
}

void Call::statuses(const MPI_Status *st, int64_t n, const StatusCtx &ctx) {
  if (st == MPI_STATUSES_IGNORE || !st || n < 0) {
    buf().put_varint(0);
    return;
  }
  // The tracer's own statuses (keep_sources_array): kinds 0 and 5 only.
  const bool ignored = private_array_ && st == ts_->private_statuses.data();
  bool completed = !(ctx.flag && *ctx.flag == 0);
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i) {
    int slot = static_cast<int>(i);
    if (ctx.mode == StatusCtx::Indexed)
      slot = ctx.index ? ctx.index[i] : -1;
    status_one(st + i, slot, ctx, completed, ignored);
  }
}

// --- helpers for generated expressions ----------------------------------------------

RankCtx group_ctx(MPI_Group group) {
  int r = MPI_UNDEFINED;
  if (group != MPI_GROUP_NULL)
    PMPI_Group_rank(group, &r);
  return {r == MPI_UNDEFINED ? -1 : r};
}

int64_t len_peers(MPI_Comm comm) {
  const CommFacts &f = rec().comms.facts(comm);
  return f.remote_size >= 0 ? f.remote_size : f.size;
}
int64_t len_comm_size(MPI_Comm comm) { return rec().comms.facts(comm).size; }
int64_t len_indegree(MPI_Comm comm) {
  int v = rec().comms.facts(comm).indegree;
  return v < 0 ? 0 : v;
}
int64_t len_outdegree(MPI_Comm comm) {
  int v = rec().comms.facts(comm).outdegree;
  return v < 0 ? 0 : v;
}
int64_t len_cart_dim(MPI_Comm comm) {
  int v = rec().comms.facts(comm).cart_dims;
  return v < 0 ? 0 : v;
}
int64_t len_group_size(MPI_Group group) {
  int n = 0;
  if (group != MPI_GROUP_NULL)
    PMPI_Group_size(group, &n);
  return n;
}

bool is_root(int root, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL)
    return true;
  const CommFacts &f = rec().comms.facts(comm);
  if (f.remote_size >= 0)
    return root == MPI_ROOT;
  return root == f.rank;
}

} // namespace pilgrim::rt
