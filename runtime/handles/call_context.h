// What a traced call knows of its context, shared by the call path and the
// handle registries: the caller's rank in a communicator, group or window
// (RankCtx), what a request is (ReqInfo) and which request or call a status
// belongs to (StatusCtx). Plain values; the registries store them and
// Call (call.h) encodes with them.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace pilgrim::rt {

// The caller's rank in the communicator or group a rank belongs to; -1 when
// unknown (ranks are then stored absolute).
struct RankCtx {
  int rank = -1;
  int cart = -1; // the communicator's grid (CommRegistry::cart), -1 if none
  // The grid slot's generation when this context was taken: a request's
  // context outlives MPI_Comm_free, and a freed slot is reused.
  uint32_t cart_gen = 0;
};
RankCtx group_ctx(MPI_Group group);
RankCtx win_ctx(MPI_Win win); // the window's group (window_registry.cpp)

// What a request is, noted when it is created, so that its status can be
// stored with only what the call did not already say.
struct ReqInfo {
  int peer = 0, tag = 0;
  RankCtx ctx;
  bool is_p2p = false, receive = false;
  bool is_file = false; // MPI_File_i*: only the status's count means anything
  uint64_t idup = 0;    // MPI_Comm_idup's request: its id agreement's serial
  bool off = false;     // made while tracing was off: never recorded (regions.h)
  static ReqInfo file() {
    ReqInfo r;
    r.is_file = true;
    return r;
  }
  static ReqInfo p2p(int peer, int tag, RankCtx ctx, bool receive) {
    ReqInfo r;
    r.peer = peer;
    r.tag = tag;
    r.ctx = ctx;
    r.is_p2p = true;
    r.receive = receive;
    return r;
  }
};

// Which request (or call) a status belongs to.
struct StatusCtx {
  // CountOnly: a file operation's status, whose source and tag MPI leaves
  // undefined; only its count means anything.
  enum Mode : uint8_t { None, Direct, Single, Indexed, FromCall, CountOnly } mode = None;
  const int *index = nullptr; // Single: *index; Indexed: index[k]
  const int *flag = nullptr;  // when non-null and *flag == 0, nothing completed
  ReqInfo from_call;          // FromCall
  static StatusCtx none() { return {}; }
  static StatusCtx direct() {
    StatusCtx s;
    s.mode = Direct;
    return s;
  }
  static StatusCtx count_only() {
    StatusCtx s;
    s.mode = CountOnly;
    return s;
  }
  static StatusCtx single(const int *index) {
    StatusCtx s;
    s.mode = Single;
    s.index = index;
    return s;
  }
  static StatusCtx indexed(const int *indices) {
    StatusCtx s;
    s.mode = Indexed;
    s.index = indices;
    return s;
  }
  static StatusCtx call(int source, int tag, RankCtx ctx) {
    StatusCtx s;
    s.mode = FromCall;
    s.from_call = ReqInfo::p2p(source, tag, ctx, true);
    return s;
  }
  StatusCtx when(const int *f) const {
    StatusCtx s = *this;
    s.flag = f;
    return s;
  }
};

} // namespace pilgrim::rt
