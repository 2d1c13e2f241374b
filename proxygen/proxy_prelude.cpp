#include "proxy_prelude.h"

namespace pilgrim::proxygen {

// Helpers use PMPI_ entry points so that a tracer sees only the replayed
// calls. Functions and variables have external linkage so that -Wall has no
// "unused" to say about the ones a proxy does not need.
const char *const kProxyPrelude =
    R"(// The proxy uses MPI's C API only (the C++ bindings' headers do not build
// warning-free).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <ctime>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <sched.h>
#include <time.h>

// The proxy makes the calls the program made, deprecated ones included.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// ---- helpers (not replayed: PMPI_ calls are invisible to a tracer) ---------------

int world_rank = 0;
int world_size = 0;

// The tracer's region and phase hooks (pilgrim/annotate.h), replayed from
// the trace's markers: weak, called only where a tracer defines them.
extern "C" void pilgrim_phase(const char *name) __attribute__((weak));
extern "C" void pilgrim_trace_off(void) __attribute__((weak));
extern "C" void pilgrim_trace_on(void) __attribute__((weak));

// The caller's rank in a communicator, group or window: relative ranks in the
// trace are offsets from it.
int comm_rank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
int group_rank(MPI_Group group) {
  int r = 0;
  PMPI_Group_rank(group, &r);
  return r;
}
int win_rank(MPI_Win win) {
  MPI_Group group;
  PMPI_Win_get_group(win, &group);
  const int r = group_rank(group);
  PMPI_Group_free(&group);
  return r;
}

// The rank at grid offset y from the caller in a Cartesian communicator: y is
// a mixed-radix number with one digit per dimension, the displacement, in
// [-floor((n-1)/2), floor(n/2)] for a periodic dimension of n processes and
// in [-(n-1), n-1] for an open one (pilgrim's docs/FORMAT.md, Rank codes).
int cart_peer(MPI_Comm comm, long long y) {
  int ndims = 0;
  PMPI_Cartdim_get(comm, &ndims);
  int dims[64], periods[64], coords[64];
  if (ndims < 0 || ndims > 64 || PMPI_Cart_get(comm, ndims, dims, periods, coords) != MPI_SUCCESS) {
    std::fprintf(stderr, "proxy: a Cartesian rank on a communicator without a usable grid\n");
    std::exit(1);
  }
  for (int i = ndims - 1; i >= 0; --i) {
    const long long n = dims[i] < 1 ? 1 : dims[i];
    const long long lo = periods[i] ? -((n - 1) / 2) : -(n - 1);
    const long long radix = periods[i] ? n : 2 * n - 1;
    long long disp = (y - lo) % radix;
    disp = (disp < 0 ? disp + radix : disp) + lo;
    y = (y - disp) / radix;
    long long c = coords[i] + disp;
    if (periods[i])
      c = ((c % n) + n) % n;
    coords[i] = static_cast<int>(c);
  }
  int rank = MPI_PROC_NULL;
  PMPI_Cart_rank(comm, coords, &rank);
  return rank;
}

// One allocation per buffer id of the trace, filled with a deterministic
// pattern so that runs are repeatable.
char *allocate_buffer(std::size_t bytes) {
  char *p = static_cast<char *>(std::malloc(bytes));
  if (!p) {
    std::fprintf(stderr, "proxy: out of memory (%zu bytes)\n", bytes);
    std::exit(1);
  }
  for (std::size_t i = 0; i < bytes; ++i)
    p[i] = static_cast<char>((i * 31 + 7) % 251);
  return p;
}

// Grows a buffer used with a derived datatype to count x extent bytes (the
// old block is kept: MPI may still use it).
void fit_buffer(char *&buffer, std::size_t &size, long long count, MPI_Datatype type) {
  MPI_Aint lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  PMPI_Type_get_extent(type, &lb, &extent);
  PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
  const long long span = count * (extent > true_extent ? extent : true_extent) +
                         (true_lb > 0 ? true_lb : 0) + 64;
  if (span > 0 && static_cast<std::size_t>(span) > size) {
    buffer = allocate_buffer(static_cast<std::size_t>(span));
    size = static_cast<std::size_t>(span);
  }
}

// Memory MPI returned (MPI_Alloc_mem, MPI_Win_allocate, MPI_Win_allocate_shared,
// MPI_Win_shared_query): the trace names it by a buffer id from that call
// until it is freed (MPI_Free_mem, MPI_Win_free of its window), and the id's
// buffer variable points to it over the same span, to the proxy's own
// allocation before and after. fit_buffer never replaces it: the traced
// program used it in place.
struct LentMemory {
  char **buffer;
  std::size_t *size;
  char *own;
  std::size_t own_size;
  void *memory;
  MPI_Win win; // MPI_WIN_NULL: MPI_Alloc_mem's, returned by MPI_Free_mem
};
std::vector<LentMemory> lent_memory;

void lend_memory(char *&buffer, std::size_t &size, void *memory, MPI_Win win) {
  if (!memory)
    return;
  for (LentMemory &m : lent_memory)
    if (m.buffer == &buffer) { // the id already names MPI's memory (a window's own segment)
      m.memory = memory;
      m.win = win;
      buffer = static_cast<char *>(memory);
      return;
    }
  lent_memory.push_back({&buffer, &size, buffer, size, memory, win});
  buffer = static_cast<char *>(memory);
  size = static_cast<std::size_t>(-1);
}

// The buffers that named the memory of `win` (or, for MPI_WIN_NULL, the
// allocation at `memory`) are the proxy's own again.
void return_lent_memory(MPI_Win win, void *memory) {
  std::size_t kept = 0;
  for (const LentMemory &m : lent_memory) {
    if (m.win == win && (win != MPI_WIN_NULL || m.memory == memory)) {
      *m.buffer = m.own;
      *m.size = m.own_size;
    } else {
      lent_memory[kept++] = m;
    }
  }
  lent_memory.resize(kept);
}
void return_memory(void *memory) { return_lent_memory(MPI_WIN_NULL, memory); }
void return_window_memory(MPI_Win win) { return_lent_memory(win, nullptr); }

// A status as the trace recorded it (bytes at full width; older traces' -1, over 2^31 - 1, as 2^31).
MPI_Status make_status(int source, int tag, MPI_Count count_bytes, int cancelled) {
  MPI_Status status;
  std::memset(&status, 0, sizeof status);
  status.MPI_SOURCE = source;
  status.MPI_TAG = tag;
  status.MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements_x(&status, MPI_BYTE, count_bytes < 0 ? MPI_Count{1} << 31 : count_bytes);
  PMPI_Status_set_cancelled(&status, cancelled);
  return status;
}

// True when every request of the array is MPI_REQUEST_NULL (completion
// loops whose order depends on the run call until then).
bool requests_done(const MPI_Request *requests, int n) {
  for (int i = 0; i < n; ++i)
    if (requests[i] != MPI_REQUEST_NULL)
      return false;
  return true;
}

// Replays the computation between two calls, in wall time. A wait that ends
// late (the process was descheduled past its end, or a sleep overslept)
// shortens the next ones by as much: the recorded gaps already hold the
// descheduling of the traced run, so the proxy's own must not add to them.
// PROXY_COMPUTE: 0 none, 1 spin, 2 sleep, 3 auto (spin unless the node's
// ranks outnumber its cores, then sleep: choose_compute).
double compute_overrun = 0; // seconds
int compute_mode = PROXY_COMPUTE == 2 ? 2 : 1; // 1 spin, 2 sleep

void compute(double seconds) {
#if PROXY_COMPUTE != 0
  const double want = seconds - compute_overrun;
  if (want <= 0) {
    compute_overrun = -want;
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration<double>(want);
  auto now = start;
  if (compute_mode == 1) {
    while ((now = std::chrono::steady_clock::now()) < end) {
    }
  } else {
    struct timespec left;
    left.tv_sec = static_cast<std::time_t>(want);
    left.tv_nsec = static_cast<long>((want - static_cast<double>(left.tv_sec)) * 1e9);
    while (nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
    now = std::chrono::steady_clock::now();
  }
  compute_overrun = std::chrono::duration<double>(now - end).count();
#else
  (void)seconds;
#endif
}

// The cores the ranks of this rank's node may run on: the union of their
// affinity masks (Linux), else the hardware's; PILGRIM_PROXY_CORES=N
// pretends N. 0 on a bad PILGRIM_PROXY_CORES.
int node_cores(MPI_Comm node) {
  const char *forced = std::getenv("PILGRIM_PROXY_CORES");
  if (forced && *forced) {
    char *end = nullptr;
    const long n = std::strtol(forced, &end, 10);
    return *end == '\0' && n > 0 && n < 1000000 ? static_cast<int>(n) : 0;
  }
  int cores = 0;
#ifdef __linux__
  cpu_set_t mine, all;
  CPU_ZERO(&mine);
  CPU_ZERO(&all);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0)
    CPU_ZERO(&mine);
  PMPI_Allreduce(&mine, &all, static_cast<int>(sizeof mine), MPI_BYTE, MPI_BOR, node);
  cores = CPU_COUNT(&all);
#else
  (void)node;
#endif
  return cores > 0 ? cores : static_cast<int>(std::thread::hardware_concurrency());
}

// Spin or sleep (compute_mode), decided once at start-up by every rank for
// its node: busy waits of more ranks than cores steal the cores the other
// ranks need. PILGRIM_PROXY_COMPUTE=spin|sleep|auto overrides the generated
// choice. The lowest rank of an oversubscribed node says so in one line.
// False (after one line from rank 0) on a bad setting.
bool choose_compute() {
#if PROXY_COMPUTE != 0
  int asked = PROXY_COMPUTE;
  const char *env = std::getenv("PILGRIM_PROXY_COMPUTE");
  if (env && *env) {
    asked = std::strcmp(env, "spin") == 0    ? 1
            : std::strcmp(env, "sleep") == 0 ? 2
            : std::strcmp(env, "auto") == 0  ? 3
                                             : 0;
    if (asked == 0) {
      if (world_rank == 0)
        std::fprintf(stderr, "proxy: PILGRIM_PROXY_COMPUTE must be spin, sleep or auto, not '%s'\n", env);
      return false;
    }
  }
  MPI_Comm node;
  PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_ranks = 0;
  PMPI_Comm_size(node, &node_ranks);
  const int cores = node_cores(node);
  PMPI_Comm_free(&node);
  int bad = cores == 0 ? 1 : 0, any_bad = 0;
  PMPI_Allreduce(&bad, &any_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_bad) {
    if (world_rank == 0)
      std::fprintf(stderr, "proxy: PILGRIM_PROXY_CORES must be a positive number of cores, not '%s'\n",
                   std::getenv("PILGRIM_PROXY_CORES"));
    return false;
  }
  const bool over = node_ranks > cores;
  compute_mode = asked == 3 ? (over ? 2 : 1) : asked;
  int mine = over ? world_rank : world_size, first = world_size;
  PMPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (over && first == world_rank)
    std::fprintf(stderr,
                 compute_mode == 2
                     ? "proxy: %d ranks on %d cores of a node: computation replayed as sleeps, not "
                       "busy waits (PILGRIM_PROXY_COMPUTE=spin to spin)\n"
                     : "proxy: %d ranks on %d cores of a node: busy waits as asked, though they "
                       "steal the cores other ranks need (PILGRIM_PROXY_COMPUTE=auto to sleep)\n",
                 node_ranks, cores);
#endif
  return true;
}

// Calls of the stand-ins by callback id (each id gets its own function, as
// the application had distinct functions).
int proxy_callback_calls[64];

// Stand-in for user reduction operators: a deterministic, commutative and
// associative byte-wise combination (XOR). It is NOT the application's
// operator: the proxy reproduces the MPI calls, not the values.
template <int N> void user_op(void *in, void *inout, int *len, MPI_Datatype *type) {
  ++proxy_callback_calls[N % 64];
  MPI_Aint lb = 0, extent = 0;
  PMPI_Type_get_extent(*type, &lb, &extent);
  const long long bytes = static_cast<long long>(*len) * extent;
  unsigned char *a = static_cast<unsigned char *>(in);
  unsigned char *b = static_cast<unsigned char *>(inout);
  for (long long i = 0; i < bytes; ++i)
    b[i] = static_cast<unsigned char>(a[i] ^ b[i]);
}

// What the program's attribute callbacks did, as the trace recorded each
// call of them (pilgrim's docs/FORMAT.md, callback records): expect_copy and
// expect_delete queue an outcome right before the MPI call that ran the
// callback, and the stand-ins below take the first one queued for their
// keyval: whether the attribute was copied and to what value, and the
// return code (an error makes the MPI call fail, as the original's did).
struct CallbackOutcome {
  bool copy;
  int keyval;
  int flag;
  void *value;
  int rc;
  bool taken;
};
const int kMaxOutcomes = 256;
CallbackOutcome proxy_outcomes[kMaxOutcomes];
int proxy_outcome_first = 0, proxy_outcome_count = 0;

void expect_callback(bool copy, int keyval, int flag, void *value, int rc) {
  if (proxy_outcome_count == kMaxOutcomes) { // the oldest was never taken: dropped
    proxy_outcome_first = (proxy_outcome_first + 1) % kMaxOutcomes;
    --proxy_outcome_count;
  }
  proxy_outcomes[(proxy_outcome_first + proxy_outcome_count) % kMaxOutcomes] = {
      copy, keyval, flag, value, rc, false};
  ++proxy_outcome_count;
}
void expect_copy(int keyval, int flag, void *value, int rc) {
  expect_callback(true, keyval, flag, value, rc);
}
void expect_delete(int keyval, int rc) { expect_callback(false, keyval, 0, nullptr, rc); }

bool take_outcome(bool copy, int keyval, CallbackOutcome &outcome) {
  for (int i = 0; i < proxy_outcome_count; ++i) {
    CallbackOutcome &o = proxy_outcomes[(proxy_outcome_first + i) % kMaxOutcomes];
    if (o.taken || o.copy != copy || o.keyval != keyval)
      continue;
    o.taken = true;
    outcome = o;
    while (proxy_outcome_count > 0 && proxy_outcomes[proxy_outcome_first].taken) {
      proxy_outcome_first = (proxy_outcome_first + 1) % kMaxOutcomes;
      --proxy_outcome_count;
    }
    return true;
  }
  return false;
}

// Stand-ins for attribute callbacks. Without a recorded outcome (a trace of
// format version 3, or a delete MPI_Finalize ran after the trace was
// written) a copy gets a fresh address and a delete succeeds.
char proxy_attribute_copies[1024][8];
int proxy_attribute_next = 0;
template <int N, typename Handle>
int copy_attr(Handle, int keyval, void *, void *, void *out, int *flag) {
  ++proxy_callback_calls[N % 64];
  CallbackOutcome o;
  if (take_outcome(true, keyval, o)) {
    *flag = o.rc == MPI_SUCCESS ? o.flag : 0;
    if (*flag)
      *static_cast<void **>(out) = o.value;
    return o.rc;
  }
  *static_cast<void **>(out) = proxy_attribute_copies[proxy_attribute_next++ % 1024];
  *flag = 1;
  return MPI_SUCCESS;
}
template <int N, typename Handle> int delete_attr(Handle, int keyval, void *, void *) {
  ++proxy_callback_calls[N % 64];
  CallbackOutcome o;
  return take_outcome(false, keyval, o) ? o.rc : MPI_SUCCESS;
}
// Stand-ins for error handlers: the error code is returned to the proxy,
// which goes on as the traced program did.
template <int N, typename Handle> void errhandler(Handle *, int *, ...) {
  ++proxy_callback_calls[N % 64];
}
// Stand-ins for the callbacks of a generalized request (MPI_Grequest_start).
// The trace keeps what the completion returned, not what the query callback
// put in the status, so the stand-in reports an empty message; the calls the
// program made with that status (MPI_Get_count) replay their recorded one.
template <int N> int grequest_query(void *, MPI_Status *status) {
  ++proxy_callback_calls[N % 64];
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
  return MPI_SUCCESS;
}
template <int N> int grequest_free(void *) {
  ++proxy_callback_calls[N % 64];
  return MPI_SUCCESS;
}
template <int N> int grequest_cancel(void *, int) {
  ++proxy_callback_calls[N % 64];
  return MPI_SUCCESS;
}

)";

} // namespace pilgrim::proxygen
