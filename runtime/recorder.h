// The process-wide recording state: registries of symbolic ids, the call
// signature table with its per-signature timing, the Sequitur grammar, and
// what happens at MPI_Init and MPI_Finalize.
#pragma once

#include "memory/address_registry.h"
#include "call.h"
#include "sites/call_sites.h"
#include "clock/call_timing.h"
#include "clock/clock.h"
#include "clock/clock_source.h"
#include "handles/comm_registry.h"
#include "handles/handle_registry.h"
#include "id_agreement.h"
#include "memory/memory_holds.h"
#include "regions.h"
#include "handles/request_registry.h"
#include "pilgrim/sequitur.h"
#include "common/settings.h"
#include "signatures/signature_table.h"
#include "clock/timing_stats.h"

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace pilgrim {
class TraceWriter;
struct FunctionInfo;
struct MergedTrace;
struct RankTrace;
struct TraceHeader;
} // namespace pilgrim

namespace pilgrim::rt {

// Paused: between MPI_Init and MPI_Finalize with tracing off (regions.h):
// every call takes the constructor's slow path, which keeps only what the
// region rule keeps.
enum class State : uint8_t { BeforeInit, Recording, Paused, Finalized };

struct RequestSlot {
  uint32_t entry;      // RequestRegistry entry, or kNone for a null request
  uint64_t before_key; // handle value before the call
  ReqInfo info;        // copied: the entry may be released before statuses are read
};

struct ThreadState {
  SignatureBuffer sig;
  SignatureBuffer nested_sig; // a record made inside the traced call (Call::Nested)
  bool in_nested = false;
  // While tracing is off: whether this thread's call in progress is one the
  // region rule records (a nested record then belongs to it).
  bool kept_while_off = false;
  int depth = 0;
  uint32_t tid = 0; // valid once rare lacks kRareNoThreadId
  std::vector<RequestSlot> slots;
  std::vector<MPI_Status> private_statuses; // Call::keep_sources_array
  struct Deferred {
    const MPI_Request *where;
    ReqInfo info;
  } deferred[4];
  int ndeferred = 0;
  // Buffers this call acquired (AddressRegistry), released when the call or
  // the request it creates ends.
  static constexpr int kMaxHeld = 4;
  const void *held[kMaxHeld];
  int nheld = 0;
  int64_t t0 = 0, t1 = 0;
  // A site key set for the next call by a caller inside the tracer (the
  // Fortran entry points: their own return address, the application's
  // call), valid while rare has kRareSiteOverride. The next wrapper's
  // constructor takes it and clears the bit, whatever its depth, so that
  // none outlives the call it was set for (call_sites.h).
  uint64_t site_override = 0;
  // This thread's rare cases, or'ed by the constructor with the process's
  // (slow_calls.h, whose bits are below 8): no thread id yet (the slow
  // path assigns one), and a site override set, which alone keeps the fast
  // path with the override as the site (the Fortran entry points' calls).
  static constexpr uint8_t kRareNoThreadId = 8, kRareSiteOverride = 16;
  uint8_t rare = kRareNoThreadId;
  void set_site_override(uint64_t key) {
    site_override = key;
    rare = static_cast<uint8_t>(rare | kRareSiteOverride);
  }
  void clear_site_override() { rare = static_cast<uint8_t>(rare & ~kRareSiteOverride); }
  // A new call starts with an empty signature and nothing deferred or held.
  void reset_call() {
    sig.clear();
    ndeferred = 0;
    nheld = 0;
    slots.clear();
  }
  // reset_call, then the signature's opening: the function and thread ids.
  __attribute__((always_inline)) void start_call(uint16_t fid) {
    reset_call();
    uint8_t *p = sig.reserve(20);
    p = SignatureBuffer::write_varint(p, fid);
    sig.commit(SignatureBuffer::write_varint(p, tid));
  }
};
// thread_state(): call_inline.h

// A predefined callback: its function, its index in the format's table and
// its callback type ("MPI_Comm_copy_attr_function"). One function may stand
// for several names (MPICH's MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN and
// MPI_WIN_DUP_FN are one function): the parameter's type picks the name.
struct PredefinedCallback {
  const void *fn;
  uint32_t index;
  const char *type;
};

struct SignatureStats {
  TimingAccumulator duration, interval;
  uint64_t count = 0;
  int64_t last_start = -1;
};

class Recorder {
public:
  // The one recorder, made on first use (usually by the library's load-time
  // constructor) and never destroyed: wrappers may run during static
  // destruction. The check is one load on the hot path.
  static Recorder &get() {
    Recorder *r = instance_;
    return __builtin_expect(r != nullptr, 1) ? *r : create();
  }
  // The recorder, known to exist: inside an active Call (whose constructor
  // made it), no check.
  static Recorder &active() { return *instance_; }

  std::atomic<State> state{State::BeforeInit};
  Settings settings;
  // settings.timing and g_use_tsc in one: the clock a call reads (set at
  // MPI_Init; before, the defaults': aggregate timing on CLOCK_MONOTONIC).
  CallClock call_clock = CallClock::Monotonic;
  bool multithreaded = false;
  // ~0 with PILGRIM_SITES=on, 0 with off: the mask a call's site key takes.
  uint64_t sites_mask = 0;
  std::mutex lock;

  uint16_t id_init = 0, id_init_thread = 0, id_finalize = 0;
  HandleRegistry handles[kHandleKindCount];
  RequestRegistry requests;
  AddressRegistry addresses; // buffers and pointers share one id space
  MemoryHolds memory;        // addresses held until MPI_Free_mem or MPI_Win_free
  AddressRegistry callbacks;
  std::vector<PredefinedCallback> predefined_callbacks;
  CommRegistry comms;
  IdAgreements agreements; // agreed ids of communicators, windows, files

  // Called by the Call of MPI_Init/MPI_Init_thread once PMPI_Init returned.
  void on_init();
  // Called by the Call of MPI_Finalize before PMPI_Finalize runs.
  void on_finalize();
  // What function `fid` does to the memory its buffers and pointers name
  // beyond the call (memory_holds.h).
  enum class MemoryEffect : uint8_t {
    None,
    KeepsBuffers, // MPI keeps the buffers for the rest of the run (an attached buffer)
    WindowBase,   // the buffer is the memory of the window the call creates
    FreesMemory,  // MPI_Free_mem: the pointer's allocation ends
  };
  MemoryEffect memory_effect(uint16_t fid) const {
    return fid < memory_effects_.size() ? memory_effects_[fid] : MemoryEffect::None;
  }
  // What tracing off does to function `fid`'s calls (regions.h).
  RegionRule region_rule(uint16_t fid) const {
    return fid < region_rules_.size() ? region_rules_[fid] : RegionRule::Traffic;
  }
  // Tracing off and on (MPI_Pcontrol, PILGRIM_TRACE_OFF/ON): between
  // MPI_Init and MPI_Finalize; before MPI_Init, PILGRIM_START decides.
  void set_tracing(bool on);
  // One complete signature, followed by the call's site key: 8 bytes, host
  // order (call_sites.h). Every CST key ends with those 8 bytes during the
  // run; MPI_Finalize replaces them (CallSites::rewrite).
  void record(const uint8_t *sig, size_t n, int64_t t0, int64_t t1);
  // The same for the signature of a call of function `fid` in `b` (a
  // SignatureBuffer: its first 16 bytes may be loaded whole): the hot path.
  // The call's site key is `site` (its bytes are not in `b`).
  __attribute__((always_inline)) void record_call(uint16_t fid, SignatureBuffer &b, uint64_t site,
                                                  int64_t t0, int64_t t1) {
    if (__builtin_expect(slow_record_, false)) {
      b.put_bytes(&site, sizeof site);
      record(b.data(), b.size(), t0, t1);
      return;
    }
    record_terminal(last_terminal(fid, b.data(), b.size(), site), t0, t1);
  }
  // The same, never held back (IdAgreements hands on what it held).
  void record_committed(const uint8_t *sig, size_t n, int64_t t0, int64_t t1);
  // While an idup's id agreement is in flight, records are held back.
  void set_holding(bool h) {
    holding_ = h;
    slow_record_ = holding_ || settings.verify;
  }

  size_t memory_bytes() const;
  uint64_t calls() const { return calls_; }
  // The runtime's own dup of MPI_COMM_WORLD (never seen by the application).
  MPI_Comm private_comm() const { return private_comm_; }
  // This rank's clock record for the trace (pilgrim/rank_clock.h); complete
  // once on_finalize has ended the calibration. Syncs are absent (rtt -1)
  // when the timing mode reads no clock.
  RankClock rank_clock() const { return describe_clock(tick_rate_, clock_init_, clock_finalize_); }

private:
  Recorder();
  static Recorder &create();
  static inline Recorder *instance_ = nullptr;
  void setup_predefined();
  void check_output_writable();
  // on_init's steps: per-call timing's streams opened on every rank or the
  // run stopped (`error`: on_init's message so far); the call clock chosen
  // and started, synchronized with rank 0 for per-call timing.
  void start_per_call_timing(std::string &error);
  void start_order_replay(); // PILGRIM_REPLAY (replay/)
  void start_clocks();
  // Collective: every rank's trace merged to rank 0, which writes it.
  void write_trace();
  // write_trace's steps: this rank's part (signatures with their site
  // references, grammar, communicators); rank 0's header; rank 0's file
  // from the merged trace, with per-call timing every rank's section too
  // (collective then), false if it could not be written.
  RankTrace rank_trace();
  TraceHeader trace_header() const;
  bool write_file(const MergedTrace &merged, const std::vector<const FunctionInfo *> &functions);
  void print_summary();
  void write_verify_log();
  // MPI-IO offsets fitted to the rank against the neighbor's (rank_offsets.h).
  void fit_rank_offsets();
  // Per-call modes: every rank's RANK_TIMING section into `writer`'s file
  // (rank 0's writer; nullptr elsewhere). Collective; false if any rank failed.
  bool write_rank_timing(TraceWriter *writer, bool ok);
  std::string rank_clock_block() const;

  uint32_t intern_signature(const uint8_t *key, size_t n);
  // Terminal `terminal`'s signature, without its site key.
  std::string_view signature_of(uint32_t terminal) const;
  // Collective: every rank's site keys numbered into one table (call_sites.h).
  void agree_sites();
  // A loop repeats a function's signature: the function's last signature,
  // up to 16 bytes, is kept beside its terminal and compared word by word
  // (longer ones against the table's copy) before the table is asked.
  struct LastSignature {
    uint64_t word[2] = {0, 0}, mask[2] = {0, 0}; // bytes 0-15, and which of them count
    uint64_t site = 0;                           // the site key
    uint32_t size = 0;                           // without the site key
    uint32_t terminal = SignatureTable::kNone;
  };
  // The terminal of `sig` (n bytes, of function `fid`) when it is the
  // function's last signature, else kNone; `sig` has 16 readable bytes.
  __attribute__((always_inline)) uint32_t last_terminal_if_same(uint16_t fid, const uint8_t *sig,
                                                                size_t n, uint64_t site) const {
    if (fid >= last_signature_.size())
      return SignatureTable::kNone;
    const LastSignature &l = last_signature_[fid];
    if (l.size != n || l.site != site)
      return SignatureTable::kNone;
    if (n > 16)
      return std::memcmp(cst_.key(l.terminal).data(), sig, n) == 0 ? l.terminal
                                                                   : SignatureTable::kNone;
    uint64_t w0, w1;
    std::memcpy(&w0, sig, 8);
    std::memcpy(&w1, sig + 8, 8);
    return (((w0 ^ l.word[0]) & l.mask[0]) | ((w1 ^ l.word[1]) & l.mask[1])) == 0
               ? l.terminal
               : SignatureTable::kNone;
  }
  __attribute__((always_inline)) uint32_t last_terminal(uint16_t fid, const uint8_t *sig, size_t n,
                                                        uint64_t site) {
    const uint32_t t = last_terminal_if_same(fid, sig, n, site);
    return __builtin_expect(t != SignatureTable::kNone, 1) ? t : intern_site(fid, sig, n, site);
  }
  // intern_new for `sig` (n bytes) followed by the site key `site`.
  uint32_t intern_site(uint16_t fid, const uint8_t *sig, size_t n, uint64_t site);
  // The table's terminal for `key` (a signature and its 8-byte site key, n
  // bytes in all), which becomes the function's last one.
  uint32_t intern_new(uint16_t fid, const uint8_t *key, size_t n);
  // The record of one call whose signature is `terminal`. Per-call work
  // lives here: keep it a straight line.
  __attribute__((always_inline)) void record_terminal(uint32_t terminal, int64_t t0, int64_t t1) {
    SignatureStats &s = stats_[terminal];
    ++s.count;
    if (__builtin_expect(per_call_, false)) {
      timing_.add(t0, t1, terminal);
    } else if (settings.timing != TimingMode::None) {
      s.duration.add(t1 - t0);
      if (s.last_start >= 0)
        s.interval.add(t0 - s.last_start);
      s.last_start = t0;
    }
    grammar_.append(terminal);
    ++calls_;
  }

  // record() takes its one branch on this: verify log or held records.
  bool slow_record_ = false;
  bool holding_ = false;

  std::vector<MemoryEffect> memory_effects_;
  std::vector<RegionRule> region_rules_; // per function id
  SignatureTable cst_;                   // keys: signature + 8-byte site key (record())
  CallSites sites_;
  std::vector<uint8_t> site_key_scratch_;     // intern_site's key
  std::vector<LastSignature> last_signature_; // per function id
  std::vector<SignatureStats> stats_;
  bool per_call_ = false; // a per-call timing mode: every record goes to timing_
  CallTiming timing_;
  TickRate tick_rate_;
  ClockSync clock_init_, clock_finalize_; // sync_with_rank0 at MPI_Init, MPI_Finalize
  int64_t clock_sync_ns_[2] = {0, 0};     // their durations, for the summary
  Sequitur grammar_;
  std::vector<uint8_t> verify_log_;
  uint64_t calls_ = 0;
  int64_t start_time_ns_ = 0;
  int64_t finalize_merge_ns_ = 0, finalize_write_ns_ = 0; // MPI_Finalize's added work
  int64_t finalize_sites_ns_ = 0; // agreeing on and resolving the call sites (call_sites.h)
  MPI_Comm private_comm_ = MPI_COMM_NULL;
  int world_rank_ = 0, world_size_ = 1;
};

} // namespace pilgrim::rt
