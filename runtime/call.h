// The per-role encoding interface the generated wrappers call. One Call
// object lives for the duration of one intercepted MPI call:
//
//   Call c_(id); if (!c_.active()) return PMPI_X(...);
//   <in-values>; c_.start(); rc = PMPI_X(...); c_.stop(); <out-values>;
//   c_.finish(rc);
//
// Each role (pilgrim/function_table.h) has exactly one encoder here, and the
// byte layout they write is the signature encoding of docs/FORMAT.md.
//
// The hot path (the constructor, start, stop, finish, the destructor, handles
// and ranks) is inline, defined in call_inline.h, so that a generated wrapper
// is one function whose function id is a constant; what is rare (threads,
// requests, held memory, MPI_Init and MPI_Finalize) is out of line.
#pragma once

#include "common/handle_key.h"
#include "handles/call_context.h"
#include "pilgrim/function_table.h"
#include "signatures/signature_buffer.h"

#include <mpi.h>

#include <cstdint>
#include <type_traits>

// The wrappers are the only symbols libpilgrim.so exports.
#define PILGRIM_EXPORT __attribute__((visibility("default")))

namespace pilgrim::rt {

inline RankCtx comm_ctx(MPI_Comm comm); // call_inline.h

struct ThreadState;

class Call {
public:
  // `site`: where the application called (the wrapper's return address,
  // call_sites.h), or nullptr for the runtime's own records.
  inline explicit Call(uint16_t function_id, const void *site = nullptr) noexcept;
  // A record made while a traced call is in progress on this thread (a
  // callback MPI invoked from inside it, callback_records.h): it has its
  // own buffer, leaves the enclosing call's state alone, and is active only
  // inside a traced call while recording. End it with finish_nested().
  struct Nested {};
  Call(uint16_t function_id, Nested) noexcept;
  inline ~Call();
  Call(const Call &) = delete;
  Call &operator=(const Call &) = delete;

  bool active() const { return active_; }
  // start, stop and finish: only while active() (a wrapper returned before
  // them otherwise).
  inline void start();
  inline void stop();
  inline void finish(int64_t rc);
  // MPI_Finalize's start: the trace is written before PMPI_Finalize runs,
  // and the call finished (its wrapper calls neither stop nor finish).
  void start_finalize();
  // MPI_Init's and MPI_Init_thread's stop: recording begins.
  void stop_init();
  void finish_nested(int64_t rc);

  // --- values ---------------------------------------------------------------
  void value(int64_t v) { buf().put_zigzag(v); }
  template <class T> void values(const T *p, int64_t n) {
    if (!p || n < 0) {
      buf().put_varint(0);
      return;
    }
    if constexpr (std::is_same_v<T, int>) {
      if (is_special_int_array(p)) {
        special_int_array(p);
        return;
      }
    }
    buf().put_varint(static_cast<uint64_t>(n) + 1);
    for (int64_t i = 0; i < n; ++i)
      buf().put_zigzag(static_cast<int64_t>(p[i]));
  }
  template <class T> void matrix3(const T (*p)[3], int64_t rows) {
    if (!p || rows < 0) {
      buf().put_varint(0);
      return;
    }
    buf().put_varint(static_cast<uint64_t>(rows) + 1);
    for (int64_t i = 0; i < rows; ++i)
      for (int j = 0; j < 3; ++j)
        buf().put_zigzag(static_cast<int64_t>(p[i][j]));
  }
  // Offset role (docs/FORMAT.md §8.3): svarint(stride) svarint(base), the
  // value stride x world rank + base. Recorded as (0, v); MPI_Finalize fits
  // the stride from the neighbor ranks' values (rank_offsets.h).
  void file_offset(int64_t v) {
    buf().put_zigzag(0);
    buf().put_zigzag(v);
  }
  template <class T> void file_offsets(const T *p, int64_t n) {
    if (!p || n < 0) {
      buf().put_varint(0);
      return;
    }
    buf().put_varint(static_cast<uint64_t>(n) + 1);
    for (int64_t i = 0; i < n; ++i)
      file_offset(static_cast<int64_t>(p[i]));
  }
  void dbl(double v) { buf().put_bytes(&v, sizeof v); }
  // An out value MPI did not write (its flag is false): stored as absent,
  // varint(0), the NULL of every role that may carry a flag.
  void absent() { buf().put_varint(0); }
  void dbls(const double *p, int64_t n);
  void tag(int t);
  void tags(const int *p, int64_t n);
  inline void rank(int r, RankCtx ctx, bool relative);
  inline static uint64_t relative_code(int r, RankCtx ctx);
  inline void ranks(const int *p, int64_t n, RankCtx ctx, bool relative);

  // --- handles --------------------------------------------------------------
  template <class H> __attribute__((always_inline)) void handle(HandleKind k, H h) {
    handle_key_(k, handle_key(h));
  }
  // A handle the tracer may never have seen (handle_registry.h, encode_seen).
  template <class H> void handle_seen(HandleKind k, H h) { handle_seen_key_(k, handle_key(h)); }
  template <class H> void handles(HandleKind k, const H *p, int64_t n) {
    if (!p || n < 0) {
      buf().put_varint(0);
      return;
    }
    buf().put_varint(static_cast<uint64_t>(n) + 1);
    for (int64_t i = 0; i < n; ++i)
      handle_key_(k, handle_key(p[i]));
  }
  template <class H> void handles_create(HandleKind k, const H *p, int64_t n) {
    handles_created(k, p, n, [this](HandleKind kind, uint64_t key) { create_key_(kind, key); });
  }
  // Communicators, windows and files: the id is agreed by the members
  // (id_agreement.h); `parent` is the call's communicator argument, if any.
  template <class H> void handles_create(HandleKind k, const H *p, int64_t n, MPI_Comm parent) {
    handles_created(k, p, n, [this, parent](HandleKind kind, uint64_t key) {
      create_agreed_(kind, key, parent);
    });
  }
  // The array of created handles, each given its id by `create`.
  template <class H, class Create>
  void handles_created(HandleKind k, const H *p, int64_t n, Create create) {
    if (!p || n < 0) {
      buf().put_varint(0);
      return;
    }
    buf().put_varint(static_cast<uint64_t>(n) + 1);
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_same_v<H, MPI_Comm>)
        if (k == HandleKind::Comm)
          note_comm(p[i]);
      create(k, handle_key(p[i]));
    }
  }
  template <class H> void handle_free(HandleKind k, const H *p, H before) {
    handles(k, p, 1);
    release_key_(k, handle_key(before));
  }
  // A request passed by value (MPI_Request_get_status, MPI_Grequest_complete,
  // MPI_Pready, ...): one element, no array prefix (docs/FORMAT.md §8.1).
  void request(MPI_Request r);
  void requests_in(const MPI_Request *p, int64_t n);
  void requests_out(const MPI_Request *p, int64_t n);
  void request_create(const MPI_Request *p, const ReqInfo &info);

  // --- addresses, strings, callbacks ----------------------------------------
  void buffer(const void *p);
  // A buffer sized in bytes (a window's memory, an attached region).
  void buffer(const void *p, int64_t bytes);
  // Address role (address_coding.cpp): an MPI_Aint that may hold one of the
  // caller's addresses, coded against its pinned addresses
  // (address_anchors.h), or a window's target displacement, which in a
  // dynamic window is an address of the target (dynamic_windows.h).
  void address(int64_t v);
  template <class T> void addresses(const T *p, int64_t n) {
    if (!p || n < 0) {
      buf().put_varint(0);
      return;
    }
    buf().put_varint(static_cast<uint64_t>(n) + 1);
    for (int64_t i = 0; i < n; ++i)
      address(static_cast<int64_t>(p[i]));
  }
  void target_disp(int64_t v, MPI_Win win, int target_rank);
  void pointer(const void *p);
  void pointer(MPI_Aint a) { pointer(reinterpret_cast<const void *>(static_cast<uintptr_t>(a))); }
  void pointer_out(const void *p) { pointer(p ? *static_cast<void *const *>(p) : nullptr); }
  void pointer_out(const MPI_Aint *p) {
    if (p)
      pointer(*p);
    else
      pointer(static_cast<const void *>(nullptr));
  }
  // Memory MPI allocated for the program (`p` points to the pointer MPI
  // returned), `bytes` long: held until it is freed (memory_holds.h).
  void memory_out(const void *p, int64_t bytes);
  void opaque(bool non_null) {
    uint8_t b = non_null ? 1 : 0;
    buf().put_bytes(&b, 1);
  }
  void string(const char *s);
  void string_out(const char *s, int64_t rc) { string(rc == MPI_SUCCESS ? s : nullptr); }
  void string_array(char *const *a, int64_t n);
  void argv_array(char **const *a, int64_t n);
  // `type`: the parameter's callback type ("MPI_Comm_copy_attr_function"),
  // which names a predefined callback that several names share.
  void callback(const void *fn, const char *type);

  // --- statuses -------------------------------------------------------------
  void status(const MPI_Status *st, const StatusCtx &ctx);
  void statuses(const MPI_Status *st, int64_t n, const StatusCtx &ctx);

  // --- the matched sender behind MPI_STATUS_IGNORE (private_status.cpp) ------
  // Where MPI should write a status: the application's `st`, or, when it
  // passed MPI_STATUS_IGNORE to a receive that may match any sender or any
  // tag, a status of the tracer's own, so that the trace keeps what matched
  // (docs/FORMAT.md §8.3, Status kind 5), which order replay forces. The
  // application's memory is never written and it still sees
  // MPI_STATUS_IGNORE's semantics.
  // A receive or probe with source `source` and tag `tag` in the call:
  MPI_Status *keep_source(MPI_Status *st, int source, int tag) {
    return st == MPI_STATUS_IGNORE && (source == MPI_ANY_SOURCE || tag == MPI_ANY_TAG)
               ? private_status()
               : st;
  }
  // A completion of the requests requests_in listed (one status):
  MPI_Status *keep_sources(MPI_Status *st) {
    return st == MPI_STATUS_IGNORE && any_wildcard_slot() ? private_status() : st;
  }
  // A completion's array of statuses, one per request requests_in listed:
  MPI_Status *keep_sources_array(MPI_Status *st) {
    return st == MPI_STATUSES_IGNORE && any_wildcard_slot() ? private_statuses() : st;
  }

private:
  SignatureBuffer &buf() { return *buf_; }
  inline void handle_key_(HandleKind k, uint64_t key);
  void handle_seen_key_(HandleKind k, uint64_t key);
  // The out-of-line halves of the inline hot path.
  void begin_slow_();
  void finish_slow_(int64_t rc);
  void end_slow_();
  static uint64_t negative_rank_code_(int r, RankCtx ctx, bool relative);
  static bool cartesian_code_(int r, RankCtx ctx, uint64_t &code);
  void create_key_(HandleKind k, uint64_t key);
  void create_agreed_(HandleKind k, uint64_t key, MPI_Comm parent);
  void release_key_(HandleKind k, uint64_t key);
  void note_comm(MPI_Comm c);
  void request_element(const MPI_Request *where, MPI_Request r);
  uint64_t buffer_code(const void *p); // the Buffer code; acquires the address
  void status_one(const MPI_Status *st, int request_slot, const StatusCtx &ctx, bool completed,
                  bool ignored);
  bool any_wildcard_slot() const;
  MPI_Status *private_status();
  MPI_Status *private_statuses();
  void status_count_only(const MPI_Status *st);
  static bool is_special_int_array(const int *p);
  void special_int_array(const int *p);

  void hold_memory_(int64_t rc);
  bool recorded_by_region_rule_() const;

  ThreadState *ts_;
  SignatureBuffer *buf_;
  uint64_t site_ = 0; // the call's site key (call_sites.h); 0: none
  uint16_t fid_;
  // Adjacent flags: the constructor clears them with one store.
  bool active_ = false;
  bool locked_ = false;
  bool nested_ = false;
  bool paused_ = false;          // tracing is off: the region rule decides at finish (regions.h)
  bool private_array_ = false;   // MPI writes the statuses into ts_->private_statuses
  bool has_win_ = false;         // the call named or created a window:
  uint64_t win_key_ = 0;         // its handle key (its memory lives as long)
  const void *memory_ = nullptr; // memory_out's memory, holding one use
  int64_t memory_bytes_;         // its size, if memory_
  uint64_t new_anchor_ = 0;      // an address this call pinned first (address_anchors.h)
  MPI_Status private_status_[1]; // MPI writes the status here (keep_source)
};

// --- helpers the generated length and root expressions use ---------------------
int64_t len_peers(MPI_Comm comm);
int64_t len_comm_size(MPI_Comm comm);
int64_t len_indegree(MPI_Comm comm);
int64_t len_outdegree(MPI_Comm comm);
int64_t len_group_size(MPI_Group group);
int64_t len_cart_dim(MPI_Comm comm);
template <class T> int64_t len_deref(const T *p) {
  if (!p)
    return 0;
  int64_t v = static_cast<int64_t>(*p);
  return v < 0 ? 0 : v; // MPI_UNDEFINED and friends count as 0
}
template <class T> int64_t len_elem(const T *p, int64_t i) {
  if (!p || i < 0)
    return 0;
  int64_t v = static_cast<int64_t>(p[i]);
  return v < 0 ? 0 : v;
}
template <class T> int64_t len_sum(const T *p, int64_t n) {
  int64_t s = 0;
  for (int64_t i = 0; p && i < n; ++i)
    s += static_cast<int64_t>(p[i]);
  return s;
}
template <class T> int64_t len_nullterm(T *const *p) {
  int64_t n = 0;
  while (p && p[n])
    ++n;
  return n;
}
template <class T> int64_t len_nullterm(T **p) {
  int64_t n = 0;
  while (p && p[n])
    ++n;
  return n;
}
bool is_root(int root, MPI_Comm comm);
// Whether an out flag says MPI wrote the outputs it guards.
inline bool flag_true(const int *flag) { return flag && *flag != 0; }

template <class T> int64_t as_int64(T v) {
  if constexpr (std::is_pointer_v<T>)
    return static_cast<int64_t>(reinterpret_cast<uintptr_t>(v));
  else
    return static_cast<int64_t>(v);
}
template <class T> bool non_null(T v) {
  if constexpr (std::is_pointer_v<T>)
    return v != nullptr;
  else
    return true;
}
// The handle a freeing call's parameter points to before the call; for a
// NULL pointer (MPI rejects the call) a value-initialized handle, which no
// registry holds, so nothing is released.
template <class H> H handle_before(const H *p) { return p ? *p : H{}; }
template <class F> const void *function_address(F fn) {
  if constexpr (std::is_pointer_v<F>)
    return reinterpret_cast<const void *>(reinterpret_cast<uintptr_t>(fn));
  else
    return nullptr;
}

} // namespace pilgrim::rt
