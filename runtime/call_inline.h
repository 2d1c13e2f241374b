// The hot path of a traced call, inline (call.h declares it): what every
// call does, from the constructor to the destructor, in the common case of
// one thread, no requests and no held memory. Each function tests for the
// rare case once and hands it to its out-of-line half in call.cpp. Included
// by the generated wrappers and by the runtime's files that make calls.
#pragma once

#include "call.h"
#include "sites/call_sites.h"
#include "recorder.h"
#include "common/slow_calls.h"

// Inlined whatever the compiler's size heuristics say: these are the hot path.
#define PILGRIM_HOT inline __attribute__((always_inline))

namespace pilgrim::rt {

// The thread's state, once made: a plain pointer in initial-exec TLS is one
// load, where a thread_local object with a constructor goes through a TLS
// wrapper (and __tls_get_addr from a header). __thread: no initialization
// check either.
extern __thread ThreadState *tls_thread_state __attribute__((tls_model("initial-exec")));
ThreadState &make_thread_state();
PILGRIM_HOT ThreadState &thread_state() {
  ThreadState *ts = tls_thread_state;
  return __builtin_expect(ts != nullptr, 1) ? *ts : make_thread_state();
}

PILGRIM_HOT Call::Call(uint16_t function_id, const void *site) noexcept
    : ts_(&thread_state()), buf_(&ts_->sig), fid_(function_id) {
  if (ts_->depth++ > 0) {
    // A call MPI makes internally: passed through untraced. A site a
    // Fortran entry point set for it (from a callback) goes with it.
    ts_->clear_site_override();
    return;
  }
  const Recorder &r = Recorder::get(); // made here if it was not yet: active() below
  site_ = reinterpret_cast<uintptr_t>(site);
  // Anything but a plain recorded call on a thread that has its id: tracing
  // not recording, MPI_THREAD_MULTIPLE, plugin-built code's site ids
  // (slow_calls.h), or a site the Fortran glue set (ThreadState::rare). The
  // override alone stays here, with its site: every Fortran call has one.
  if (const uint8_t rare = slow_calls() | ts_->rare; __builtin_expect(rare != 0, 0)) {
    if (rare != ThreadState::kRareSiteOverride) {
      begin_slow_();
      return;
    }
    site_ = ts_->site_override; // taken: the override was this thread's only rare case
    ts_->rare = 0;
  }
  active_ = true;
  site_ &= r.sites_mask;        // none with PILGRIM_SITES=off
  ts_->start_call(function_id); // a constant in a wrapper
}

PILGRIM_HOT Call::~Call() {
  if (__builtin_expect(locked_ || nested_, 0)) {
    end_slow_();
    return;
  }
  --ts_->depth;
}

PILGRIM_HOT void Call::start() {
  stamp(Recorder::active().call_clock, ts_->t0);
  if (__builtin_expect(locked_, 0)) {
    Recorder::active().lock.unlock();
    locked_ = false;
  }
}

PILGRIM_HOT void Call::stop() {
  Recorder &r = Recorder::active();
  stamp(r.call_clock, ts_->t1);
  if (__builtin_expect(r.multithreaded, 0) && !locked_) {
    r.lock.lock();
    locked_ = true;
  }
}

PILGRIM_HOT void Call::finish(int64_t rc) {
  Recorder &r = Recorder::active();
  // Requests created, buffers or memory held, request entries claimed: the
  // general path.
  if (__builtin_expect((ts_->ndeferred | ts_->nheld | paused_) != 0 || memory_ != nullptr ||
                           r.requests.has_claims(),
                       0)) {
    finish_slow_(rc);
    return;
  }
  SignatureBuffer &b = ts_->sig;
  b.put_zigzag(rc);
  r.record_call(fid_, b, site_, ts_->t0, ts_->t1);
  active_ = false;
}

PILGRIM_HOT void Call::handle_key_(HandleKind k, uint64_t key) {
  buf().put_varint(Recorder::active().handles[static_cast<int>(k)].encode(key));
  if (k == HandleKind::Win) {
    has_win_ = true;
    win_key_ = key;
  }
}

PILGRIM_HOT RankCtx comm_ctx(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL)
    return {};
  return Recorder::active().comms.ctx_of(comm);
}

// A peer in a Cartesian communicator is coded by its displacement in the
// grid (cartesian_offset.h), so that a wrapped neighbor is coded like an
// interior one; elsewhere, or off the grid, by its offset in ranks.
PILGRIM_HOT uint64_t Call::relative_code(int r, RankCtx ctx) {
  uint64_t code;
  if (ctx.cart >= 0 && cartesian_code_(r, ctx, code))
    return code;
  const int64_t d = static_cast<int64_t>(r) - ctx.rank;
  return 4 + 2 * ((static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63)) + 1;
}

// Every special rank (MPI_ANY_SOURCE, MPI_PROC_NULL, MPI_ROOT, MPI_UNDEFINED)
// is negative in both MPIs: a rank >= 0 is an ordinary one.
PILGRIM_HOT void Call::rank(int r, RankCtx ctx, bool relative) {
  uint64_t v;
  if (__builtin_expect(r < 0, 0))
    v = negative_rank_code_(r, ctx, relative);
  else if (relative && ctx.rank >= 0 && Recorder::active().settings.relative_ranks)
    v = relative_code(r, ctx);
  else
    v = 4 + 2 * (static_cast<uint64_t>(r) << 1);
  buf().put_varint(v);
}

PILGRIM_HOT void Call::ranks(const int *p, int64_t n, RankCtx ctx, bool relative) {
  if (!p || n < 0) {
    buf().put_varint(0);
    return;
  }
  buf().put_varint(static_cast<uint64_t>(n) + 1);
  for (int64_t i = 0; i < n; ++i)
    rank(p[i], ctx, relative);
}

} // namespace pilgrim::rt
