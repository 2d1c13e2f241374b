// Cross-rank merge at scale, simulated (issue 4, point 6): synthetic per-rank
// CSTs and grammars go through the merge code of MPI_Finalize
// (runtime/merge, the same pilgrim_merge library) in one process, up exactly
// the tree of runtime/merge/trace_reduction.cpp: in round k, rank r with
// r mod 2^(k+1) == 2^k serializes its state and "sends" it to r - 2^k, which
// parses it and absorbs it. Rank 0 then runs finish() and the trace is
// written to memory.
//
// The tree is simulated depth first and every rank's trace is generated only
// when the simulation reaches that rank, then dropped once folded into its
// state: at most log2 P states are alive at once, and no RankTrace outlives
// its own of_rank(). Each (shape, P) runs in a forked child, so its max RSS
// is its own.
//
// Shapes (call sequences as the test programs of test/mpi make them, and
// signatures encoded as the runtime would: function id, thread 0, the
// arguments with docs/FORMAT.md's codes, the return code):
//   stencil2d      halo2d: px x py grid, neighbours -px, +px, -1, +1 or
//                  MPI_PROC_NULL on the boundary; per iteration Irecv x4,
//                  Isend x4, Waitall(8), Get_count x4, and an Allreduce
//                  every 10 iterations.
//   stencil3d      halo3d: periodic 3-D grid, Irecv x6, Isend x6,
//                  Waitall(12), Allreduce every 10 iterations. With
//                  relative ranks the wrap-around neighbours have other
//                  offsets than the interior ones, so there are up to 27
//                  kinds of rank, not one.
//   stencil3d_cart the same on a periodic MPI_Cart_create grid (halo3d -c):
//                  peers coded as grid displacements, as the runtime does
//                  in a Cartesian communicator, on user communicator 0, so
//                  every rank records the same calls.
//   master_worker  master_worker: rank 0 sends tasks (Send) and collects
//                  results (Recv ANY_SOURCE/ANY_TAG, full statuses) round
//                  robin; worker w receives (Recv from 0, ANY_TAG) and
//                  answers (Send to 0) iters-1, iters or iters+1 tasks
//                  (depending on w), then gets a stop message.
//
// Usage: merge_sim [--shape all|stencil2d|stencil3d|stencil3d_cart|master_worker[,...]]
//                  [--ranks 1K,4K,16K,64K] [--iters N] [--ranks-coding relative|absolute]
//                  [--time-limit SECONDS] [--check-ranks N] [--user-comm 0|1]
// --output FILE (one shape, one P) also writes the trace to FILE, with this
// build's real function-table rows (parameters included), so that the
// tools read its calls in full: the synthetic 256-rank trace of the matrix
// heat map's test (test/stats/matrix_svg.test) is made so.
// --user-comm 1 gives every rank one user communicator of all ranks (what a
// code that calls MPI_Cart_create or MPI_Comm_dup records); the test
// programs, and the default, use MPI_COMM_WORLD only.
// Prints Markdown tables and PASS/FAIL lines; exits 1 if a target fails.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "signatures/generated_function_table.h"
#include "merge_state.h"
#include "pilgrim/byte_io.h"
#include "pilgrim/cartesian_offset.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/merged_codec.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_writer.h"
#include "pilgrim/sequitur.h"

namespace {

using namespace pilgrim;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double thread_cpu_seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Wall and CPU time of one step, added to two totals.
struct Times {
  double wall = 0, cpu = 0;
};
class Stopwatch {
public:
  explicit Stopwatch(Times &into)
      : into_(into), wall0_(Clock::now()), cpu0_(thread_cpu_seconds()) {}
  ~Stopwatch() {
    into_.cpu += thread_cpu_seconds() - cpu0_;
    into_.wall += seconds_since(wall0_);
  }
  Stopwatch(const Stopwatch &) = delete;
  Stopwatch &operator=(const Stopwatch &) = delete;

private:
  Times &into_;
  Clock::time_point wall0_;
  double cpu0_;
};

// --- signatures -------------------------------------------------------------

// Function ids from generator/annotations (stable).
enum FunctionId : uint16_t {
  kSend = 1,
  kGetCount = 20,
  kIrecv = 28,
  kIsend = 32,
  kRecv = 44,
  kWaitall = 84,
  kAllreduce = 160,
  kCommRank = 269,
  kCommSize = 274,
  kFinalize = 368,
  kInit = 386,
};

// Rows of the trace's function table (parameters left out: the writer only
// needs the ids; docs/FORMAT.md's FUNCTIONS section would add a few hundred
// bytes for the real rows).
const FunctionInfo kFunctions[] = {
    {kSend, "MPI_Send", 0, nullptr},           {kGetCount, "MPI_Get_count", 0, nullptr},
    {kIrecv, "MPI_Irecv", 0, nullptr},         {kIsend, "MPI_Isend", 0, nullptr},
    {kRecv, "MPI_Recv", 0, nullptr},           {kWaitall, "MPI_Waitall", 0, nullptr},
    {kAllreduce, "MPI_Allreduce", 0, nullptr}, {kCommRank, "MPI_Comm_rank", 0, nullptr},
    {kCommSize, "MPI_Comm_size", 0, nullptr},  {kFinalize, "MPI_Finalize", 0, nullptr},
    {kInit, "MPI_Init", 0, nullptr},
};

// Predefined handle codes (indices of model/src/predefined_handles.cpp).
const uint64_t kCommWorld = sig::handle_predefined(0);
const uint64_t kInt = sig::handle_predefined(6);
const uint64_t kLongLong = sig::handle_predefined(11);
const uint64_t kDouble = sig::handle_predefined(14);
const uint64_t kOpSum = sig::handle_predefined(2);

bool g_relative_ranks = true; // PILGRIM_RANKS=relative, the runtime's default
bool g_user_comm = false;     // --user-comm: every rank has one user communicator
std::string g_output;         // --output: write the (one) trace there

// One call's signature, built field by field.
class Sig {
public:
  explicit Sig(uint16_t function) : w_(bytes_) {
    w_.varint(function);
    w_.varint(0); // thread 0
  }
  Sig &v(uint64_t x) {
    w_.varint(x);
    return *this;
  }
  Sig &s(int64_t x) {
    w_.svarint(x);
    return *this;
  }
  Sig &buffer(uint64_t id) { return v(sig::buffer_id(id)); }
  // A peer rank as the runtime codes it, seen from rank `me`.
  Sig &rank(int64_t peer, int64_t me) {
    if (peer < 0)
      return v(sig::kRankProcNull);
    return v(g_relative_ranks ? sig::rank_relative(peer - me) : sig::rank_absolute(peer));
  }
  // A peer in a periodic Cartesian grid, coded as its displacement.
  Sig &grid_rank(int64_t peer, int64_t me, const std::vector<int> &dims) {
    const std::vector<int> periods(dims.size(), 1);
    int64_t y = 0;
    if (!g_relative_ranks ||
        !cart_encode(static_cast<int>(dims.size()), dims.data(), periods.data(), me, peer, y))
      return rank(peer, me);
    return v(sig::rank_cartesian(y));
  }
  Sig &grid_or_rank(bool cartesian, int64_t peer, int64_t me, const std::vector<int> &dims) {
    return cartesian ? grid_rank(peer, me, dims) : rank(peer, me);
  }
  Sig &tag(int64_t t) { return v(sig::tag_value(t)); }
  // Before a single out value (a request, a rank): the array prefix of its
  // pointer, as the runtime records it; only in --output's traces, so that
  // the figures measured without it stay as they were.
  Sig &out_pointer() { return g_output.empty() ? *this : v(sig::array_prefix(1)); }
  std::string done() {
    w_.svarint(0); // MPI_SUCCESS
    return std::move(bytes_);
  }

private:
  std::string bytes_;
  ByteWriter w_;
};

// --- one rank's trace, recorded as the runtime records it ---------------------

class RankRecorder {
public:
  explicit RankRecorder(uint32_t rank) : rank_(rank) {}
  uint32_t intern(std::string signature) {
    auto it = index_.emplace(std::move(signature), static_cast<uint32_t>(trace_.cst.size()));
    if (it.second) {
      trace_.cst.emplace_back();
      trace_.cst.back().signature = it.first->first;
      seen_.push_back(false);
    }
    return it.first->second;
  }
  void call(uint32_t t) {
    CstEntry &e = trace_.cst[t];
    ++e.count;
    // Plausible, deterministic times (1-2 us per call).
    const double d = 1e-6 * (1.0 + static_cast<double>((rank_ * 31u + calls_) % 17u) * 0.05);
    add_sample(e.duration, d);
    if (seen_[t])
      add_sample(e.interval, 10 * d);
    seen_[t] = true;
    ++calls_;
    seq_.append(t);
  }
  void call(std::string signature) { call(intern(std::move(signature))); }
  RankTrace finish(uint32_t nranks, bool user_comm = g_user_comm) {
    // A communicator of all ranks, e.g. from MPI_Cart_create without
    // reordering or MPI_Comm_dup: the runtime keeps it per rank.
    if (user_comm)
      trace_.comms.push_back(
          CommInfo{0, static_cast<int32_t>(rank_), static_cast<int32_t>(nranks), -1});
    trace_.grammar.rules = seq_.rules();
    return std::move(trace_);
  }

private:
  uint32_t rank_;
  uint32_t calls_ = 0;
  RankTrace trace_;
  std::unordered_map<std::string, uint32_t> index_;
  std::vector<bool> seen_;
  Sequitur seq_;
};

void init_calls(RankRecorder &rec, int64_t me, int64_t nranks) {
  if (g_output.empty()) // the form the README's figures were measured with
    rec.call(Sig(kInit).v(sig::kOpaqueNonNull).v(sig::kOpaqueNonNull).done());
  else // --output: argc and argv in and out, as the runtime records them
    rec.call(Sig(kInit)
                 .v(sig::kOpaqueNonNull)
                 .v(sig::kOpaqueNonNull)
                 .v(sig::kOpaqueNonNull)
                 .v(sig::kOpaqueNonNull)
                 .done());
  rec.call(Sig(kCommRank).v(kCommWorld).out_pointer().rank(me, me).done());
  rec.call(Sig(kCommSize).v(kCommWorld).out_pointer().s(nranks).done());
}

// --- shapes ------------------------------------------------------------------

// MPI_Dims_create's balanced factorization (largest dimension first).
std::vector<int64_t> dims_create(int64_t n, int nd) {
  std::vector<int64_t> dims(static_cast<size_t>(nd), 1);
  std::vector<int64_t> primes;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      primes.push_back(p);
      n /= p;
    }
  if (n > 1)
    primes.push_back(n);
  std::sort(primes.rbegin(), primes.rend());
  for (int64_t p : primes)
    *std::min_element(dims.begin(), dims.end()) *= p;
  std::sort(dims.rbegin(), dims.rend());
  return dims;
}

struct Shape {
  const char *name;
  bool regular; // a code whose merge should stay O(P log P)
  RankTrace (*generate)(uint32_t rank, uint32_t nranks, int iters);
};

RankTrace stencil2d(uint32_t rank, uint32_t nranks, int iters) {
  const std::vector<int64_t> d = dims_create(nranks, 2);
  const int64_t py = d[0], px = d[1], me = rank, row = me / px, col = me % px;
  const int64_t north = row > 0 ? me - px : -1, south = row + 1 < py ? me + px : -1;
  const int64_t west = col > 0 ? me - 1 : -1, east = col + 1 < px ? me + 1 : -1;
  const int64_t L = 64; // doubles per halo
  const int64_t nb[4] = {north, south, west, east};
  const int recv_tag[4] = {2, 1, 3, 4}, send_tag[4] = {1, 2, 4, 3};
  RankRecorder rec(rank);
  init_calls(rec, me, nranks);
  uint32_t irecv[4], isend[4], get_count[4];
  for (int k = 0; k < 4; ++k) {
    irecv[k] = rec.intern(Sig(kIrecv)
                              .buffer(static_cast<uint64_t>(k))
                              .s(L)
                              .v(kDouble)
                              .rank(nb[k], me)
                              .tag(recv_tag[k])
                              .v(kCommWorld)
                              .out_pointer()
                              .v(sig::handle_user(0))
                              .done());
    isend[k] = rec.intern(Sig(kIsend)
                              .buffer(static_cast<uint64_t>(4 + k))
                              .s(L)
                              .v(kDouble)
                              .rank(nb[k], me)
                              .tag(send_tag[k])
                              .v(kCommWorld)
                              .out_pointer()
                              .v(sig::handle_user(0))
                              .done());
  }
  Sig waitall(kWaitall);
  waitall.s(8).v(sig::array_prefix(8));
  for (int k = 0; k < 8; ++k)
    waitall.v(sig::handle_user(static_cast<uint64_t>(k / 4))); // each request's pool id
  waitall.v(sig::array_prefix(8));
  for (int k = 0; k < 8; ++k)
    waitall.v(sig::kHandleNull);
  waitall.v(sig::array_prefix(8));
  for (int k = 0; k < 4; ++k)
    waitall.v(sig::kStatusCountOnly).s(nb[k] < 0 ? 0 : 8 * L);
  for (int k = 0; k < 4; ++k)
    waitall.v(sig::kStatusEmpty);
  const uint32_t wait = rec.intern(waitall.done());
  for (int k = 0; k < 4; ++k)
    get_count[k] = rec.intern(Sig(kGetCount)
                                  .v(sig::kStatusCountOnly)
                                  .s(nb[k] < 0 ? 0 : 8 * L)
                                  .v(kDouble)
                                  .v(sig::array_prefix(1))
                                  .s(nb[k] < 0 ? 0 : L)
                                  .done());
  const uint32_t allreduce = rec.intern(
      Sig(kAllreduce).buffer(8).buffer(9).s(2).v(kDouble).v(kOpSum).v(kCommWorld).done());
  for (int i = 0; i < iters; ++i) {
    for (uint32_t t : irecv)
      rec.call(t);
    for (uint32_t t : isend)
      rec.call(t);
    rec.call(wait);
    for (uint32_t t : get_count)
      rec.call(t);
    if (i % 10 == 9)
      rec.call(allreduce);
  }
  rec.call(Sig(kFinalize).done());
  return rec.finish(nranks);
}

RankTrace stencil3d_shape(uint32_t rank, uint32_t nranks, int iters, bool cartesian) {
  const std::vector<int64_t> d = dims_create(nranks, 3);
  const std::vector<int> grid(d.begin(), d.end());
  const uint64_t comm = cartesian ? sig::handle_user(0) : kCommWorld;
  const int64_t me = rank;
  const int64_t c[3] = {me / (d[1] * d[2]), (me / d[2]) % d[1], me % d[2]};
  const int64_t stride[3] = {d[1] * d[2], d[2], 1};
  int64_t nb[6];
  for (int a = 0; a < 3; ++a)
    for (int up = 0; up < 2; ++up) {
      const int64_t cc = (c[a] + (up ? 1 : d[a] - 1)) % d[a]; // periodic
      nb[2 * a + up] = me + (cc - c[a]) * stride[a];
    }
  const int64_t F = 32 * 32; // doubles per face
  RankRecorder rec(rank);
  init_calls(rec, me, nranks);
  uint32_t irecv[6], isend[6];
  for (int k = 0; k < 6; ++k) {
    irecv[k] = rec.intern(Sig(kIrecv)
                              .buffer(static_cast<uint64_t>(k))
                              .s(F)
                              .v(kDouble)
                              .grid_or_rank(cartesian, nb[k], me, grid)
                              .tag(10 + (k ^ 1))
                              .v(comm)
                              .v(sig::handle_user(0))
                              .done());
    isend[k] = rec.intern(Sig(kIsend)
                              .buffer(static_cast<uint64_t>(6 + k))
                              .s(F)
                              .v(kDouble)
                              .grid_or_rank(cartesian, nb[k], me, grid)
                              .tag(10 + k)
                              .v(comm)
                              .v(sig::handle_user(0))
                              .done());
  }
  Sig waitall(kWaitall);
  waitall.s(12).v(sig::array_prefix(12));
  for (int k = 0; k < 12; ++k)
    waitall.v(sig::handle_user(static_cast<uint64_t>(k / 6)));
  waitall.v(sig::array_prefix(12));
  for (int k = 0; k < 12; ++k)
    waitall.v(sig::kHandleNull);
  waitall.v(sig::array_prefix(12));
  for (int k = 0; k < 6; ++k)
    waitall.v(sig::kStatusCountOnly).s(8 * F);
  for (int k = 0; k < 6; ++k)
    waitall.v(sig::kStatusEmpty);
  const uint32_t wait = rec.intern(waitall.done());
  const uint32_t allreduce =
      rec.intern(Sig(kAllreduce).buffer(12).buffer(13).s(2).v(kDouble).v(kOpSum).v(comm).done());
  for (int i = 0; i < iters; ++i) {
    for (uint32_t t : irecv)
      rec.call(t);
    for (uint32_t t : isend)
      rec.call(t);
    rec.call(wait);
    if (i % 10 == 9)
      rec.call(allreduce);
  }
  rec.call(Sig(kFinalize).done());
  return rec.finish(nranks, cartesian || g_user_comm);
}

enum { kTagTask = 1, kTagStop = 2, kTagResult = 3 };

// Tasks worker w computes: iters - 1, iters or iters + 1.
int worker_tasks(int64_t w, int iters) {
  const uint64_t h = static_cast<uint64_t>(w) * 0x9E3779B97F4A7C15ull;
  return std::max(1, iters - 1 + static_cast<int>((h >> 61) % 3));
}

std::string mw_send_task(int64_t worker, int tag) {
  return Sig(kSend).buffer(0).s(2).v(kInt).rank(worker, 0).tag(tag).v(kCommWorld).done();
}

RankTrace master_worker(uint32_t rank, uint32_t nranks, int iters) {
  const int64_t me = rank, workers = static_cast<int64_t>(nranks) - 1;
  RankRecorder rec(rank);
  init_calls(rec, me, nranks);
  if (rank == 0) {
    auto recv_result = [&](int64_t w) {
      Sig s(kRecv);
      s.buffer(1).s(2).v(kLongLong).v(sig::kRankAnySource).v(sig::kTagAny).v(kCommWorld);
      s.v(sig::kStatusFull).rank(w, 0).tag(kTagResult).s(16);
      return s.done();
    };
    for (int64_t w = 1; w <= workers; ++w)
      rec.call(mw_send_task(w, kTagTask));
    // Results come back round robin; each answer gets the worker its next
    // task or its stop message.
    for (int k = 0; k < iters + 1; ++k)
      for (int64_t w = 1; w <= workers; ++w) {
        const int n = worker_tasks(w, iters);
        if (k >= n)
          continue;
        rec.call(recv_result(w));
        rec.call(mw_send_task(w, k + 1 < n ? kTagTask : kTagStop));
      }
  } else {
    auto recv_task = [&](int tag) {
      Sig s(kRecv);
      s.buffer(0).s(2).v(kInt).rank(0, me).v(sig::kTagAny).v(kCommWorld);
      s.v(sig::kStatusFull).rank(0, me).tag(tag).s(8);
      return rec.intern(s.done());
    };
    const uint32_t task = recv_task(kTagTask), stop = recv_task(kTagStop);
    const uint32_t result = rec.intern(
        Sig(kSend).buffer(1).s(2).v(kLongLong).rank(0, me).tag(kTagResult).v(kCommWorld).done());
    const int n = worker_tasks(me, iters);
    for (int i = 0; i < n; ++i) {
      rec.call(task);
      rec.call(result);
    }
    rec.call(stop);
  }
  rec.call(Sig(kFinalize).done());
  return rec.finish(nranks);
}

RankTrace stencil3d(uint32_t rank, uint32_t nranks, int iters) {
  return stencil3d_shape(rank, nranks, iters, false);
}
RankTrace stencil3d_cart(uint32_t rank, uint32_t nranks, int iters) {
  return stencil3d_shape(rank, nranks, iters, true);
}

const Shape kShapes[] = {
    {"stencil2d", true, stencil2d},
    {"stencil3d", true, stencil3d},
    {"stencil3d_cart", true, stencil3d_cart},
    {"master_worker", false, master_worker},
};

// --- the simulated reduction tree ---------------------------------------------

constexpr int kMaxLevels = 32;

// What one (shape, P) run measured; plain data, so a child can send it
// through a pipe.
struct Result {
  int ok = 0;
  char error[256] = {};
  // Merge steps, summed over all simulated ranks; finish is rank 0's alone.
  Times of_rank, serialize, parse, absorb, finish;
  Times generate; // the synthetic traces (not merge time)
  Times write;    // write_merged_trace_to_memory
  Times merge() const {
    Times t;
    for (const Times *x : {&of_rank, &serialize, &parse, &absorb, &finish}) {
      t.wall += x->wall;
      t.cpu += x->cpu;
    }
    return t;
  }
  uint64_t root_state_peak = 0;    // rank 0's MergeState::memory_bytes(), at its peak
  uint64_t root_with_incoming = 0; // ... plus the message it is absorbing (bytes + parsed)
  uint64_t max_rss = 0;            // bytes
  int levels = 0;
  uint64_t level_messages[kMaxLevels] = {};
  uint64_t level_bytes[kMaxLevels] = {};
  uint64_t level_max[kMaxLevels] = {};
  uint64_t grammars = 0, cst = 0, pool_rules = 0, pool_symbols = 0, rank_ranges = 0;
  uint64_t trace_bytes = 0, cst_bytes = 0, grammar_bytes = 0, rank_map_bytes = 0;
  uint64_t checked_ranks = 0;
  int lossless = 0;
};

class TreeSim {
public:
  TreeSim(const Shape &shape, uint32_t nranks, int iters, Result &out)
      : shape_(shape), nranks_(nranks), iters_(iters), out_(out) {}

  // Rank `lo`'s state after rounds 0 .. level-1: it covers
  // [lo, min(lo + 2^level, P)), exactly as in trace_reduction.cpp.
  MergeState reduce(uint32_t lo, int level) {
    if (level == 0) {
      RankTrace rt;
      {
        Stopwatch w(out_.generate);
        rt = shape_.generate(lo, nranks_, iters_);
      }
      Stopwatch w(out_.of_rank);
      MergeState s = MergeState::of_rank(lo, std::move(rt));
      if (lo == 0)
        note_root(s, 0);
      return s;
    }
    MergeState s = reduce(lo, level - 1);
    const uint64_t half = uint64_t{1} << (level - 1);
    if (lo + half >= nranks_)
      return s; // no partner in this round
    std::string bytes;
    {
      MergeState sender = reduce(static_cast<uint32_t>(lo + half), level - 1);
      Stopwatch w(out_.serialize);
      bytes = sender.serialize();
    }
    const int round = level - 1;
    ++out_.level_messages[round];
    out_.level_bytes[round] += bytes.size();
    out_.level_max[round] = std::max<uint64_t>(out_.level_max[round], bytes.size());
    std::optional<MergeState> received;
    {
      Stopwatch w(out_.parse);
      received = MergeState::parse(bytes);
    }
    {
      Stopwatch w(out_.absorb);
      s.absorb(*received);
    }
    if (lo == 0)
      note_root(s, bytes.size() + received->memory_bytes());
    return s;
  }

private:
  void note_root(const MergeState &s, uint64_t incoming) {
    const uint64_t m = s.memory_bytes();
    out_.root_state_peak = std::max(out_.root_state_peak, m);
    out_.root_with_incoming = std::max(out_.root_with_incoming, m + incoming);
  }

  const Shape &shape_;
  uint32_t nranks_;
  int iters_;
  Result &out_;
};

// The call sequence of `rank` in the merged trace, as signatures.
std::vector<const std::string *> merged_calls(const MergedTrace &m, uint32_t rank) {
  std::vector<const std::string *> out;
  GrammarWalker w(m.rules, m.roots.at(m.grammar_of(rank)));
  uint64_t t;
  while (w.next(t))
    out.push_back(&m.cst.at(t).signature);
  return out;
}

bool same_calls(const MergedTrace &m, const RankTrace &rt, uint32_t rank) {
  if (m.comms_of(rank) != rt.comms)
    return false;
  const std::vector<const std::string *> got = merged_calls(m, rank);
  Grammar g = rt.grammar;
  GrammarWalker w(g, 0);
  uint64_t t;
  size_t i = 0;
  while (w.next(t)) {
    if (i >= got.size() || *got[i] != rt.cst.at(t).signature)
      return false;
    ++i;
  }
  return i == got.size();
}

void run_one(const Shape &shape, uint32_t nranks, int iters, int check_ranks, Result &r) {
  int levels = 0;
  while ((uint64_t{1} << levels) < nranks)
    ++levels;
  r.levels = levels;
  TreeSim sim(shape, nranks, iters, r);
  MergeState root = sim.reduce(0, levels);
  MergedTrace merged;
  {
    Stopwatch w(r.finish);
    merged = root.finish();
  }
  r.grammars = merged.roots.size();
  r.cst = merged.cst.size();
  r.pool_rules = merged.rules.rules.size();
  for (const auto &body : merged.rules.rules)
    r.pool_symbols += body.size();
  r.rank_ranges = merged.rank_map.size();
  r.cst_bytes = encode_merged_cst(merged.cst).size();
  r.grammar_bytes = encode_merged_grammar(merged.rules, merged.roots).size();
  r.rank_map_bytes = encode_rank_map(merged.rank_map).size();
  TraceHeader header;
  header.mpi_library = "merge_sim";
  header.mpi_version = "0";
  header.nranks = nranks;
  header.timing_mode = 1;
  header.command_line = std::string("merge_sim ") + shape.name;
  std::vector<const FunctionInfo *> functions;
  for (const FunctionInfo &f : kFunctions)
    functions.push_back(&f);
  {
    Stopwatch w(r.write);
    r.trace_bytes = write_merged_trace_to_memory(header, functions, merged).size();
  }
  if (!g_output.empty()) {
    // The real rows, parameters included, so that readers decode every argument.
    for (const FunctionInfo *&f : functions)
      if (const FunctionInfo *real = generated_function(f->id))
        f = real;
    const std::string bytes = write_merged_trace_to_memory(header, functions, merged);
    std::FILE *out = std::fopen(g_output.c_str(), "wb");
    if (!out)
      throw std::runtime_error("cannot write " + g_output);
    const bool written = std::fwrite(bytes.data(), 1, bytes.size(), out) == bytes.size();
    if (std::fclose(out) != 0 || !written)
      throw std::runtime_error("cannot write " + g_output);
  }
  // Lossless on a sample of ranks: first, last, and spread between.
  std::vector<uint32_t> sample{0, nranks - 1};
  for (int k = 1; k + 1 < check_ranks; ++k)
    sample.push_back(static_cast<uint32_t>((uint64_t{nranks} * k * 7919u / check_ranks) % nranks));
  r.lossless = 1;
  for (uint32_t rank : sample) {
    if (!same_calls(merged, shape.generate(rank, nranks, iters), rank))
      r.lossless = 0;
    ++r.checked_ranks;
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  r.max_rss = static_cast<uint64_t>(ru.ru_maxrss) * 1024;
  r.ok = 1;
}

// Runs one (shape, P) in a child process; `timed_out` says whether it was
// stopped at the time limit.
Result run_forked(const Shape &shape, uint32_t nranks, int iters, int check_ranks,
                  unsigned time_limit, bool &timed_out) {
  Result r;
  timed_out = false;
  int fd[2];
  if (pipe(fd) != 0)
    throw std::runtime_error("pipe failed");
  std::fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0)
    throw std::runtime_error("fork failed");
  if (pid == 0) {
    close(fd[0]);
    alarm(time_limit); // SIGALRM ends the child at the limit
    try {
      run_one(shape, nranks, iters, check_ranks, r);
    } catch (const std::exception &e) {
      std::snprintf(r.error, sizeof r.error, "%s", e.what());
    }
    const char *p = reinterpret_cast<const char *>(&r);
    size_t left = sizeof r;
    while (left > 0) {
      const ssize_t n = write(fd[1], p, left);
      if (n <= 0)
        _exit(3);
      p += n;
      left -= static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fd[1]);
  char *p = reinterpret_cast<char *>(&r);
  size_t got = 0;
  while (got < sizeof r) {
    const ssize_t n = read(fd[0], p + got, sizeof r - got);
    if (n <= 0)
      break;
    got += static_cast<size_t>(n);
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (got != sizeof r) {
    r = Result();
    if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
      timed_out = true;
    else
      std::snprintf(r.error, sizeof r.error, "child ended without a result (status %d)", status);
  }
  return r;
}

// --- output --------------------------------------------------------------------

std::string human_ranks(uint32_t p) {
  if (p >= 1024 && p % 1024 == 0)
    return std::to_string(p / 1024) + "K";
  return std::to_string(p);
}

std::string bytes_str(uint64_t b) {
  char buf[32];
  if (b < 10 * 1024)
    std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(b));
  else if (b < 10 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(b) / 1024);
  else
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1024 * 1024));
  return buf;
}

double per_plogp_ns(const Result &r, uint32_t p) {
  const double lg = p > 1 ? std::log2(static_cast<double>(p)) : 1.0;
  return r.merge().cpu * 1e9 / (static_cast<double>(p) * lg);
}

uint32_t parse_ranks(const std::string &s) {
  char *end = nullptr;
  unsigned long v = std::strtoul(s.c_str(), &end, 10);
  if (end && (*end == 'K' || *end == 'k')) {
    v *= 1024;
    ++end;
  }
  if (!end || *end || v == 0 || v > (1ul << 24))
    throw std::runtime_error("bad rank count '" + s + "' (use e.g. 1000, 1K, 64K; at most 16M)");
  return static_cast<uint32_t>(v);
}

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t comma = s.find(',', start);
    out.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

int usage(const char *why) {
  std::fprintf(stderr,
               "merge_sim: %s\nusage: merge_sim [--shape "
               "all|stencil2d|stencil3d|stencil3d_cart|master_worker[,...]] "
               "[--ranks 1K,4K,16K,64K] [--iters N] [--ranks-coding relative|absolute] "
               "[--time-limit SECONDS] [--check-ranks N] [--user-comm 0|1] [--output FILE]\n",
               why);
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<const Shape *> shapes;
  std::vector<uint32_t> ranks{1024, 4096, 16384, 65536};
  int iters = 100, check_ranks = 8;
  unsigned time_limit = 120;
  try {
    for (int a = 1; a < argc; ++a) {
      const std::string arg = argv[a];
      if (a + 1 >= argc)
        return usage(("missing value after " + arg).c_str());
      const std::string val = argv[++a];
      if (arg == "--shape") {
        for (const std::string &name : split(val)) {
          bool found = false;
          for (const Shape &s : kShapes)
            if (name == "all" || name == s.name) {
              shapes.push_back(&s);
              found = true;
            }
          if (!found)
            return usage(("unknown shape '" + name + "'").c_str());
        }
      } else if (arg == "--ranks") {
        ranks.clear();
        for (const std::string &p : split(val))
          ranks.push_back(parse_ranks(p));
      } else if (arg == "--iters") {
        iters = std::atoi(val.c_str());
        if (iters < 1)
          return usage("--iters must be at least 1");
      } else if (arg == "--ranks-coding") {
        if (val != "relative" && val != "absolute")
          return usage("--ranks-coding is relative or absolute");
        g_relative_ranks = val == "relative";
      } else if (arg == "--time-limit") {
        time_limit = static_cast<unsigned>(std::atoi(val.c_str()));
        if (time_limit < 1)
          return usage("--time-limit must be at least 1 second");
      } else if (arg == "--user-comm") {
        if (val != "0" && val != "1")
          return usage("--user-comm is 0 or 1");
        g_user_comm = val == "1";
      } else if (arg == "--output") {
        g_output = val;
      } else if (arg == "--check-ranks") {
        check_ranks = std::max(2, std::atoi(val.c_str()));
      } else {
        return usage(("unknown option " + arg).c_str());
      }
    }
  } catch (const std::exception &e) {
    return usage(e.what());
  }
  if (shapes.empty())
    for (const Shape &s : kShapes)
      shapes.push_back(&s);
  if (!g_output.empty() && (shapes.size() != 1 || ranks.size() != 1))
    return usage("--output needs one shape and one --ranks value");

  std::printf("Simulated cross-rank merge (runtime/merge, tree of trace_reduction.cpp), %d "
              "iterations, %s ranks, %s, time limit %u s per run\n\n",
              iters, g_relative_ranks ? "relative" : "absolute",
              g_user_comm ? "one user communicator per rank" : "MPI_COMM_WORLD only", time_limit);
  struct Row {
    const Shape *shape;
    uint32_t p;
    Result r;
    bool timed_out;
  };
  std::vector<Row> rows;
  std::printf("| shape | P | merge wall | merge CPU | CPU ns / (P·log2 P) | root state peak | + "
              "incoming msg | max RSS | grammars | CST entries | pool rules | rank ranges | trace "
              "file | lossless |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
              "| ---: | --- |\n");
  std::fflush(stdout);
  for (const Shape *shape : shapes)
    for (uint32_t p : ranks) {
      Row row{shape, p, Result(), false};
      row.r = run_forked(*shape, p, iters, check_ranks, time_limit, row.timed_out);
      const Result &r = row.r;
      if (row.timed_out)
        std::printf("| %s | %s | **timed out (> %u s), not measured** | | | | | | | | | | | |\n",
                    shape->name, human_ranks(p).c_str(), time_limit);
      else if (!r.ok)
        std::printf("| %s | %s | **failed: %s** | | | | | | | | | | | |\n", shape->name,
                    human_ranks(p).c_str(), r.error);
      else
        std::printf(
            "| %s | %s | %.3f s | %.3f s | %.1f | %s | %s | %s | %llu | %llu | %llu | "
            "%llu | %s | %s (%llu ranks) |\n",
            shape->name, human_ranks(p).c_str(), r.merge().wall, r.merge().cpu, per_plogp_ns(r, p),
            bytes_str(r.root_state_peak).c_str(), bytes_str(r.root_with_incoming).c_str(),
            bytes_str(r.max_rss).c_str(), static_cast<unsigned long long>(r.grammars),
            static_cast<unsigned long long>(r.cst), static_cast<unsigned long long>(r.pool_rules),
            static_cast<unsigned long long>(r.rank_ranges), bytes_str(r.trace_bytes).c_str(),
            r.lossless ? "yes" : "**NO**", static_cast<unsigned long long>(r.checked_ranks));
      std::fflush(stdout);
      rows.push_back(row);
    }
  std::printf(
      "\nmerge: of_rank, serialize, parse and absorb on every simulated rank, and rank 0's "
      "finish(), in one process; CPU is the thread's CPU time (the targets use it: wall time "
      "counts other processes' load too). Not counted: generating the synthetic traces, writing "
      "the trace.\nroot state peak: MergeState::memory_bytes() of rank 0's state; + incoming "
      "msg: also the bytes rank 0 is absorbing and their parsed state.\ntrace file: "
      "write_merged_trace_to_memory (zstd) with function-table rows without parameters.\n");

  std::printf("\nCPU seconds per step (all simulated ranks)\n\n| shape | P | generate (not "
              "merge) | of_rank | serialize | parse | absorb | finish (rank 0) | write trace | "
              "CST / grammar / rank map bytes |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | "
              "---: | ---: | ---: |\n");
  for (const Row &row : rows) {
    const Result &r = row.r;
    if (!r.ok)
      continue;
    std::printf("| %s | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %s / %s / %s |\n",
                row.shape->name, human_ranks(row.p).c_str(), r.generate.cpu, r.of_rank.cpu,
                r.serialize.cpu, r.parse.cpu, r.absorb.cpu, r.finish.cpu, r.write.cpu,
                bytes_str(r.cst_bytes).c_str(), bytes_str(r.grammar_bytes).c_str(),
                bytes_str(r.rank_map_bytes).c_str());
  }

  // Bytes sent per tree level, one table per shape.
  for (const Shape *shape : shapes) {
    std::vector<const Row *> mine;
    int levels = 0;
    for (const Row &row : rows)
      if (row.shape == shape && row.r.ok) {
        mine.push_back(&row);
        levels = std::max(levels, row.r.levels);
      }
    if (mine.empty())
      continue;
    std::printf("\nBytes sent per tree level, %s: total (largest message)\n\n| round |",
                shape->name);
    for (const Row *row : mine)
      std::printf(" P = %s |", human_ranks(row->p).c_str());
    std::printf("\n| ---: |");
    for (size_t i = 0; i < mine.size(); ++i)
      std::printf(" ---: |");
    std::printf("\n");
    for (int k = 0; k < levels; ++k) {
      std::printf("| %d |", k);
      for (const Row *row : mine) {
        if (k < row->r.levels)
          std::printf(" %s (%s) |", bytes_str(row->r.level_bytes[k]).c_str(),
                      bytes_str(row->r.level_max[k]).c_str());
        else
          std::printf(" |");
      }
      std::printf("\n");
    }
  }

  // Targets.
  std::printf("\n");
  bool failed = false;
  auto find = [&](const Shape *s, uint32_t p) -> const Row * {
    for (const Row &row : rows)
      if (row.shape == s && row.p == p)
        return &row;
    return nullptr;
  };
  for (const Row &row : rows)
    if (row.r.ok && !row.r.lossless) {
      std::printf("FAIL %s P=%s: a sampled rank's calls differ after the merge\n", row.shape->name,
                  human_ranks(row.p).c_str());
      failed = true;
    }
  for (const Shape *shape : shapes) {
    if (!shape->regular)
      continue;
    const Row *lo = find(shape, 1024), *hi = find(shape, 65536);
    if (!lo || !hi) {
      std::printf("SKIP time ~ P·log P for %s: needs runs at P = 1K and 64K\n", shape->name);
      continue;
    }
    if (!lo->r.ok || !hi->r.ok) {
      std::printf("FAIL time ~ P·log P for %s: a run at 1K or 64K did not finish\n", shape->name);
      failed = true;
      continue;
    }
    const double a = per_plogp_ns(lo->r, 1024), b = per_plogp_ns(hi->r, 65536);
    const bool pass = b <= 2 * a;
    std::printf("%s time ~ P·log P for %s: %.1f ns per P·log2 P at 64K vs %.1f at 1K (x%.2f, "
                "target <= x2)\n",
                pass ? "PASS" : "FAIL", shape->name, b, a, b / a);
    failed |= !pass;
  }
  for (const Shape *shape : shapes) {
    if (std::strcmp(shape->name, "stencil2d") != 0)
      continue;
    const Row *hi = find(shape, 65536);
    if (!hi) {
      std::printf("SKIP root memory for stencil2d at 64K: not run\n");
    } else if (!hi->r.ok) {
      std::printf("FAIL root memory for stencil2d at 64K: the run did not finish\n");
      failed = true;
    } else {
      const uint64_t limit = 64ull << 20;
      const bool pass = hi->r.root_with_incoming < limit;
      std::printf("%s root memory for stencil2d at 64K: state peak %s, with incoming message %s, "
                  "process max RSS %s (target < 64 MiB)\n",
                  pass ? "PASS" : "FAIL", bytes_str(hi->r.root_state_peak).c_str(),
                  bytes_str(hi->r.root_with_incoming).c_str(), bytes_str(hi->r.max_rss).c_str());
      failed |= !pass;
    }
  }
  return failed ? 1 : 0;
}
