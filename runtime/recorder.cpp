#include "recorder.h"
#include "common/slow_calls.h"

#include "call_inline.h" // thread_state()
#include "clock/clock_sync.h"
#include "memory/dynamic_windows.h"
#include "signatures/generated_function_table.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/temp_file.h"
#include "pilgrim/trace_model.h"
#include "pilgrim/trace_writer.h"
#include "merge/rank_offsets.h"
#include "merge/trace_output.h"
#include "merge/trace_reduction.h"
#include "replay/replay_cursor.h"
#include "replay/replay_script.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <unistd.h>
#include <utility>

namespace pilgrim::rt {

Recorder &Recorder::create() {
  static Recorder *r = new Recorder(); // thread-safe first construction
  instance_ = r;
  return *r;
}

namespace {
__attribute__((constructor)) void create_recorder_at_load() { Recorder::get(); }
} // namespace

Recorder::Recorder() {
  auto id_of = [](const char *name) -> uint16_t {
    const FunctionInfo *f = generated_function(name);
    return f ? f->id : 0xffff;
  };
  id_init = id_of("MPI_Init");
  id_init_thread = id_of("MPI_Init_thread");
  id_finalize = id_of("MPI_Finalize");
  const std::pair<const char *, MemoryEffect> effects[] = {
      {"MPI_Win_attach", MemoryEffect::KeepsBuffers},
      {"MPI_Buffer_attach", MemoryEffect::KeepsBuffers},
      {"MPI_Buffer_attach_c", MemoryEffect::KeepsBuffers},
      {"MPI_Comm_attach_buffer", MemoryEffect::KeepsBuffers},
      {"MPI_Comm_attach_buffer_c", MemoryEffect::KeepsBuffers},
      {"MPI_Session_attach_buffer", MemoryEffect::KeepsBuffers},
      {"MPI_Session_attach_buffer_c", MemoryEffect::KeepsBuffers},
      {"MPI_Win_create", MemoryEffect::WindowBase},
      {"MPI_Win_create_c", MemoryEffect::WindowBase},
      {"MPI_Free_mem", MemoryEffect::FreesMemory},
  };
  for (const auto &[name, effect] : effects) {
    const uint16_t id = id_of(name);
    if (id == 0xffff)
      continue;
    if (memory_effects_.size() <= id)
      memory_effects_.resize(id + 1u, MemoryEffect::None);
    memory_effects_[id] = effect;
  }
  region_rules_ = region_rules(id_init, id_init_thread, id_finalize);
}

namespace {

// Rank 0's string, on every rank of comm.
void broadcast_string(MPI_Comm comm, std::string &s) {
  int len = static_cast<int>(s.size());
  PMPI_Bcast(&len, 1, MPI_INT, 0, comm);
  s.resize(static_cast<size_t>(len));
  PMPI_Bcast(s.data(), len, MPI_CHAR, 0, comm);
}

// Stops the run at MPI_Init: rank 0 says why, every rank leaves.
[[noreturn]] void stop_run(MPI_Comm comm, int rank, const std::string &why) {
  if (rank == 0)
    std::fprintf(stderr, "%s\n", why.c_str());
  PMPI_Barrier(comm);
  PMPI_Finalize();
  std::exit(1);
}

} // namespace

void Recorder::on_init() {
  PMPI_Comm_dup(MPI_COMM_WORLD, &private_comm_);
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  int provided = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&provided);
  multithreaded = provided == MPI_THREAD_MULTIPLE;
  set_slow_call_bit(kSlowMultithreaded, multithreaded);
  std::string error;
  if (!parse_settings(settings, error) || !choose_clock(world_rank_, error))
    stop_run(private_comm_, world_rank_, error);
  sites_mask = settings.sites ? ~uint64_t{0} : 0;
  check_output_writable();
  if (!settings.replay.empty())
    start_order_replay();
  if (settings.per_call_timing())
    start_per_call_timing(error);
  setup_predefined();
  comms.set_world(MPI_COMM_WORLD);
  agreements.init(*this);
  set_holding(false);
  start_clocks();
  state.store(settings.start_on ? State::Recording : State::Paused, std::memory_order_release);
  set_slow_call_bit(kSlowNotRecording, !settings.start_on);
}

void Recorder::start_order_replay() {
  // The default output is a free name; a given one may not be the trace
  // being read.
  char a[PATH_MAX], b[PATH_MAX];
  const bool same = settings.output == settings.replay ||
                    (realpath(settings.output.c_str(), a) && realpath(settings.replay.c_str(), b) &&
                     std::strcmp(a, b) == 0);
  if (same)
    stop_run(private_comm_, world_rank_,
             "pilgrim: PILGRIM_OUTPUT names the trace PILGRIM_REPLAY replays (" +
                 settings.output_shown + "): a replay writes a trace of its own");
  std::string error;
  const int ok = start_replay(settings.replay, world_rank_, world_size_,
                              settings.replay_watchdog, private_comm_, error);
  // Every rank reads the trace; the first that cannot says why.
  int first_failed = ok ? world_size_ : world_rank_, first = world_size_;
  PMPI_Allreduce(&first_failed, &first, 1, MPI_INT, MPI_MIN, private_comm_);
  if (first < world_size_) {
    if (world_rank_ == first)
      std::fprintf(stderr, "%s\n", error.c_str());
    PMPI_Barrier(private_comm_);
    PMPI_Finalize();
    std::exit(1);
  }
}

void Recorder::start_per_call_timing(std::string &error) {
  // Every rank opens its streams; if one cannot, the run stops here.
  // A TOL is coded in ticks (call_timing.h): 1 ns each on CLOCK_MONOTONIC.
  // The TSC's rate is known only at MPI_Finalize (TickRate over the whole
  // run), so for a TOL it is measured here over 2 ms and taken 1% slower:
  // the TOL in ticks comes out 1% tighter than TOL over the run's own
  // calibration, which readers convert with (docs/FORMAT.md §7.10), far
  // more than the 2 ms measurement can be off. (Reading CLOCK_MONOTONIC
  // instead cost zfp about 80 ns per call here, two vDSO reads under KVM.)
  double seconds_per_tick = 1e-9;
  if (g_use_tsc && settings.timing_spec.absolute()) {
    TickRate rate;
    rate.begin();
    rate.end();
    seconds_per_tick = rate.ns_per_tick() * 1.01e-9;
  }
  int ok = timing_.open(settings.timing_spec, seconds_per_tick, settings.output, world_rank_,
                        settings.verify, settings.timing_thread, error);
  int all_ok = 0;
  PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, private_comm_);
  if (!all_ok) {
    if (!ok)
      std::fprintf(stderr, "%s\n", error.c_str());
    timing_.close();
    stop_run(private_comm_, world_rank_, "pilgrim: per-call timing could not start");
  }
  per_call_ = true;
}

void Recorder::start_clocks() {
  call_clock = settings.timing == TimingMode::None ? CallClock::None
               : g_use_tsc                         ? CallClock::Tsc
                                                   : CallClock::Monotonic;
  tick_rate_.begin();
  // Only per-call times are placed on rank 0's timeline: aggregate
  // statistics need no alignment, and the exchange costs milliseconds.
  if (per_call_)
    clock_init_ = sync_with_rank0(private_comm_, world_rank_, world_size_, &clock_sync_ns_[0]);
  timespec wall;
  clock_gettime(CLOCK_REALTIME, &wall);
  start_time_ns_ = static_cast<int64_t>(wall.tv_sec) * 1000000000 + wall.tv_nsec;
  if (g_use_tsc && settings.timing != TimingMode::None) {
    // MPI_Init's own start and end were read before the clock was chosen
    // (CLOCK_MONOTONIC ns): in TSC ticks they would be garbage, a "gap" of
    // years before the next call. The call is placed where tracing starts,
    // with no duration.
    ThreadState &ts = thread_state();
    ts.t0 = ts.t1 = ticks();
  }
}

void Recorder::set_tracing(bool on) {
  State from = on ? State::Paused : State::Recording;
  // Off: the calls turn slow before the state says Paused; on: after it
  // says Recording (slow_calls.h). One switch at a time, so that the bit
  // and the state agree when threads switch at once (the annotate header's
  // macros may be called from any thread).
  static std::mutex switching;
  std::lock_guard<std::mutex> hold(switching);
  if (!on)
    set_slow_call_bit(kSlowNotRecording, true);
  if (state.compare_exchange_strong(from, on ? State::Recording : State::Paused,
                                    std::memory_order_acq_rel) &&
      on)
    set_slow_call_bit(kSlowNotRecording, false);
}

void Recorder::check_output_writable() {
  int ok = 1;
  std::string why;
  if (world_rank_ == 0) {
    warn_unknown_settings();
    // The default path never replaces an earlier trace: the first free
    // numbered name instead (PROGRAM.1.pilgrim, ...), chosen here by rank 0
    // for every rank (verify logs and timing files sit beside it).
    if (!settings.output_given)
      first_free_output(settings.output, settings.output_shown);
    // A probe file beside the trace, removed at once: a run killed before
    // MPI_Finalize leaves nothing under the trace's name, and an existing
    // trace stays until the new one replaces it.
    std::string err;
    if (!can_write_beside(settings.output, err)) {
      ok = 0;
      why = "pilgrim: cannot write the trace to " + settings.output + ": " + err +
            " (set PILGRIM_OUTPUT)";
    }
  }
  PMPI_Bcast(&ok, 1, MPI_INT, 0, private_comm_);
  if (!ok)
    stop_run(private_comm_, world_rank_, why);
  if (!settings.output_given) {
    broadcast_string(private_comm_, settings.output);
    broadcast_string(private_comm_, settings.output_shown);
  }
}

uint32_t Recorder::intern_signature(const uint8_t *key, size_t n) {
  // A signature starts with its function id (a varint below 2^14, i.e. at
  // most two bytes); the key ends with the 8-byte site key.
  uint16_t fid = key[0] & 0x7f;
  if ((key[0] & 0x80) && n > 1)
    fid = static_cast<uint16_t>(fid | (key[1] & 0x7f) << 7);
  if (fid < last_signature_.size()) {
    const LastSignature &l = last_signature_[fid];
    if (l.terminal != SignatureTable::kNone && l.size + kSiteKeyBytes == n &&
        std::memcmp(cst_.key(l.terminal).data(), key, n) == 0)
      return l.terminal;
  }
  return intern_new(fid, key, n);
}

uint32_t Recorder::intern_site(uint16_t fid, const uint8_t *sig, size_t n, uint64_t site) {
  site_key_scratch_.assign(sig, sig + n);
  const auto *s = reinterpret_cast<const uint8_t *>(&site);
  site_key_scratch_.insert(site_key_scratch_.end(), s, s + kSiteKeyBytes);
  return intern_new(fid, site_key_scratch_.data(), site_key_scratch_.size());
}

uint32_t Recorder::intern_new(uint16_t fid, const uint8_t *key, size_t n) {
  if (fid >= last_signature_.size())
    last_signature_.resize(fid + 1u);
  bool inserted;
  const uint32_t terminal = cst_.intern(key, n, inserted);
  if (inserted) {
    stats_.emplace_back();
    if (per_call_) {
      // The bound of the terminal's calls (a per-function EPS or TOL).
      const long f = traced_function_index(fid);
      timing_.new_terminal(terminal, f >= 0 ? traced_function(static_cast<size_t>(f)).name : "");
    }
  }
  LastSignature &l = last_signature_[fid];
  l = LastSignature{};
  const size_t sig_n = n - kSiteKeyBytes;
  l.size = static_cast<uint32_t>(sig_n);
  std::memcpy(&l.site, key + sig_n, kSiteKeyBytes);
  l.terminal = terminal;
  if (sig_n <= 16) {
    uint8_t bytes[16] = {}, mask[16] = {};
    std::memcpy(bytes, key, sig_n);
    std::memset(mask, 0xff, sig_n);
    std::memcpy(l.word, bytes, 16);
    std::memcpy(l.mask, mask, 16);
  }
  return terminal;
}

void Recorder::record(const uint8_t *sig, size_t n, int64_t t0, int64_t t1) {
  if (__builtin_expect(slow_record_, false)) {
    if (holding_)
      agreements.hold(sig, n, t0, t1);
    else
      record_committed(sig, n, t0, t1);
    return;
  }
  record_terminal(intern_signature(sig, n), t0, t1);
}

void Recorder::record_committed(const uint8_t *sig, size_t n, int64_t t0, int64_t t1) {
  record_terminal(intern_signature(sig, n), t0, t1);
  if (settings.verify) {
    n -= kSiteKeyBytes; // the verify log holds signatures only
    uint64_t len = n;
    while (len >= 0x80) {
      verify_log_.push_back(static_cast<uint8_t>(len) | 0x80);
      len >>= 7;
    }
    verify_log_.push_back(static_cast<uint8_t>(len));
    verify_log_.insert(verify_log_.end(), sig, sig + n);
    if (per_call_)
      timing_.add_exact(t0, t1);
  }
}

size_t Recorder::memory_bytes() const {
  size_t m = cst_.memory_bytes() + stats_.capacity() * sizeof(SignatureStats) +
             grammar_.memory_bytes() + last_signature_.capacity() * sizeof(LastSignature) +
             requests.memory_bytes() + addresses.memory_bytes() + memory.memory_bytes() +
             callbacks.memory_bytes() + comms.memory_bytes() + agreements.memory_bytes() +
             (per_call_ ? timing_.memory_bytes() : 0);
  for (const auto &h : handles)
    m += h.memory_bytes();
  return m;
}

void Recorder::on_finalize() {
  if (replaying())
    replay_cursor().check_finished(); // the program made every recorded matching call
  set_slow_call_bit(kSlowNotRecording, true);
  state.store(State::Finalized, std::memory_order_release);
  agreements.finish_all();                  // every id agreed, every held record recorded
  dynamic_windows().resolve(private_comm_); // target displacements of dynamic windows
  fit_rank_offsets();                       // MPI-IO offsets that follow the rank (rank_offsets.h)
  if (per_call_)
    clock_finalize_ = sync_with_rank0(private_comm_, world_rank_, world_size_, &clock_sync_ns_[1]);
  if (settings.timing != TimingMode::None)
    tick_rate_.end();
  if (settings.verify)
    write_verify_log();
  write_trace();
  if (settings.summary)
    print_summary();
  PMPI_Comm_free(&private_comm_);
}

std::string_view Recorder::signature_of(uint32_t terminal) const {
  std::string_view key = cst_.key(terminal);
  return key.substr(0, key.size() - kSiteKeyBytes);
}

void Recorder::agree_sites() {
  std::vector<uint64_t> keys;
  if (settings.sites)
    for (uint32_t t = 0; t < cst_.size(); ++t) {
      uint64_t k = 0;
      std::string_view key = cst_.key(t);
      std::memcpy(&k, key.data() + key.size() - kSiteKeyBytes, kSiteKeyBytes);
      keys.push_back(k);
    }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const int64_t t0 = monotonic_ns();
  sites_.agree(keys, private_comm_, world_rank_);
  finalize_sites_ns_ = monotonic_ns() - t0;
}

void Recorder::fit_rank_offsets() {
  std::vector<std::string> signatures;
  signatures.reserve(cst_.size());
  for (uint32_t t = 0; t < cst_.size(); ++t) {
    signatures.emplace_back(signature_of(t));
    dynamic_windows().rewrite(signatures.back());
  }
  rank_offsets().fit(signatures, private_comm_, world_rank_, world_size_);
}

void Recorder::write_verify_log() {
  dynamic_windows().rewrite_log(verify_log_);
  rank_offsets().rewrite_log(verify_log_);
  std::string path = settings.output + ".verify." + std::to_string(world_rank_);
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "pilgrim: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return;
  }
  std::fwrite(verify_log_.data(), 1, verify_log_.size(), f);
  std::fclose(f);
}

namespace {

TimingStats to_seconds(const TimingAccumulator &a, double ns_per_tick) {
  const double s = ns_per_tick * 1e-9;
  TimingStats t;
  t.n = a.n;
  if (a.n == 0)
    return t;
  t.mean = a.mean() * s;
  t.m2 = a.m2() * s * s;
  t.min = static_cast<double>(a.min) * s;
  t.max = static_cast<double>(a.max) * s;
  return t;
}

uint16_t function_id_of(std::string_view sig) {
  uint64_t v = 0;
  int shift = 0;
  for (unsigned char c : sig) {
    v |= static_cast<uint64_t>(c & 0x7f) << shift;
    if (!(c & 0x80))
      break;
    shift += 7;
  }
  return static_cast<uint16_t>(v);
}

// Collective: which functions the trace uses, a bitmap (by
// traced_function_index) OR-reduced over all ranks, valid on rank 0.
std::vector<uint8_t> functions_used(const RankTrace &mine, MPI_Comm comm) {
  std::vector<uint8_t> used(traced_function_count(), 0), all_used(traced_function_count(), 0);
  for (const CstEntry &e : mine.cst) {
    const long f = traced_function_index(function_id_of(e.signature));
    if (f >= 0)
      used[static_cast<size_t>(f)] = 1;
  }
  PMPI_Reduce(used.data(), all_used.data(), static_cast<int>(used.size()), MPI_UNSIGNED_CHAR,
              MPI_BOR, 0, comm);
  return all_used;
}

// Collective: the calls the trace holds, for the line that says where it
// went; valid on rank 0.
unsigned long long calls_held(const RankTrace &mine, MPI_Comm comm) {
  unsigned long long calls = 0, all_calls = 0;
  for (const CstEntry &e : mine.cst)
    calls += e.count;
  PMPI_Reduce(&calls, &all_calls, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, comm);
  return all_calls;
}

// The functions of the bitmap `used` (functions_used), by id.
std::vector<const FunctionInfo *> functions_of(const std::vector<uint8_t> &used) {
  std::vector<const FunctionInfo *> functions;
  for (size_t i = 0; i < traced_function_count(); ++i)
    if (used[i])
      functions.push_back(&traced_function(i));
  std::sort(functions.begin(), functions.end(),
            [](const FunctionInfo *a, const FunctionInfo *b) { return a->id < b->id; });
  return functions;
}

// The MPI library's version string, its first line.
std::string mpi_library_version() {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  int len = 0;
  PMPI_Get_library_version(lib, &len);
  std::string libv(lib, static_cast<size_t>(std::max(len, 0)));
  auto nl = libv.find_first_of(std::string("\n\0", 2));
  if (nl != std::string::npos)
    libv.resize(nl);
  return libv;
}

} // namespace

void Recorder::write_trace() {
  agree_sites();
  RankTrace mine = rank_trace();
  const std::vector<uint8_t> all_used = functions_used(mine, private_comm_);
  const unsigned long long all_calls = calls_held(mine, private_comm_);

  // Merge every rank's CST and grammar up a tree; rank 0 writes the result.
  const int64_t t_merge = monotonic_ns();
  ReductionStats reduction;
  std::optional<MergedTrace> merged = reduce_to_root(
      private_comm_, MergeState::of_rank(static_cast<uint32_t>(world_rank_), std::move(mine)),
      &reduction);
  finalize_merge_ns_ = monotonic_ns() - t_merge;
  if (world_rank_ != 0) {
    if (per_call_)
      write_rank_timing(nullptr, true);
    return;
  }
  const int64_t t_write = monotonic_ns();
  for (CstEntry &e : merged->cst)
    e.site = take_site_ref(e.signature);
  if (settings.sites)
    merged->sites = sites_.take_table();
  const bool ok = write_file(*merged, functions_of(all_used));
  finalize_write_ns_ = monotonic_ns() - t_write;
  if (!ok)
    std::fprintf(stderr, "pilgrim: no trace was written to %s\n", settings.output_shown.c_str());
  else if (!settings.quiet)
    std::fprintf(stderr, "%s\n",
                 written_line(all_calls, world_size_, settings.output_shown,
                              file_size_or_zero(settings.output))
                     .c_str());
}

RankTrace Recorder::rank_trace() {
  RankTrace mine;
  mine.cst.reserve(cst_.size());
  for (uint32_t t = 0; t < cst_.size(); ++t) {
    CstEntry e;
    e.signature = std::string(signature_of(t));
    e.count = stats_[t].count;
    e.duration = to_seconds(stats_[t].duration, tick_rate_.ns_per_tick());
    e.interval = to_seconds(stats_[t].interval, tick_rate_.ns_per_tick());
    dynamic_windows().rewrite(e.signature);
    rank_offsets().rewrite(e.signature);
    // The site reference follows the signature through the merge, so calls
    // at different sites stay apart (call_sites.h).
    std::string_view key = cst_.key(t);
    e.signature.append(key.substr(key.size() - kSiteKeyBytes));
    sites_.rewrite(e.signature);
    mine.cst.push_back(std::move(e));
  }
  mine.grammar.rules = grammar_.rules();
  for (const CommFacts &f : comms.history()) {
    if (f.encoded_id < 2 || f.encoded_id % 2 != 0)
      continue; // predefined communicators are known to every reader
    CommInfo c;
    c.comm_id = (f.encoded_id - 2) / 2;
    c.rank = f.rank;
    c.size = f.size;
    c.remote_size = f.remote_size;
    c.group = f.group;
    c.remote_group = f.remote_group;
    mine.comms.push_back(c);
  }
  return mine;
}

TraceHeader Recorder::trace_header() const {
  TraceHeader h;
#if defined(OPEN_MPI)
  h.mpi_library = "Open MPI";
#elif defined(MPICH)
  h.mpi_library = "MPICH";
#else
  h.mpi_library = "unknown";
#endif
  h.mpi_version = mpi_library_version();
  h.nranks = static_cast<uint32_t>(world_size_);
  h.timing_mode = static_cast<uint8_t>(settings.timing);
  h.command_line = command_line();
  h.start_time_unix_ns = start_time_ns_;
  if (per_call_)
    h.timing_spec = timing::spec_text(settings.timing_spec);
  return h;
}

bool Recorder::write_file(const MergedTrace &merged,
                          const std::vector<const FunctionInfo *> &functions) {
  const TraceHeader h = trace_header();
  std::optional<TraceWriter> writer;
  bool ok = true;
  try {
    writer.emplace(settings.output, h, functions);
    writer->add_merged(merged);
    if (!per_call_)
      writer->finish();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim: %s\n", e.what());
    ok = false;
  }
  if (per_call_)
    ok = write_rank_timing(ok ? &*writer : nullptr, ok);
  return ok;
}

std::string Recorder::rank_clock_block() const {
  // The clock block of docs/FORMAT.md §7.9 (rank_clock.h).
  std::vector<uint8_t> block;
  encode_rank_clock(rank_clock(), block);
  return std::string(block.begin(), block.end());
}

bool Recorder::write_rank_timing(TraceWriter *writer, bool ok) {
  // Rank 0 says where the sections start and in which file; every rank
  // writes its own section there (MPI-IO, offsets from an exclusive scan);
  // rank 0 gathers only each section's (offset, size, CRC) for the section
  // table. Any failure anywhere: nobody keeps anything (the writer removes
  // the temporary file), the trace path is left as it was.
  unsigned long long head[2] = {ok ? 1ull : 0ull, 0}; // ok, base offset
  std::string tmp;
  if (world_rank_ == 0 && ok) {
    try {
      head[1] = writer->begin_external();
      tmp = writer->temp_path();
    } catch (const std::exception &e) {
      std::fprintf(stderr, "pilgrim: %s\n", e.what());
      head[0] = 0;
    }
  }
  PMPI_Bcast(head, 2, MPI_UNSIGNED_LONG_LONG, 0, private_comm_);
  if (!head[0]) {
    timing_.close();
    return false;
  }
  int len = static_cast<int>(tmp.size());
  PMPI_Bcast(&len, 1, MPI_INT, 0, private_comm_);
  tmp.resize(static_cast<size_t>(len));
  PMPI_Bcast(tmp.data(), len, MPI_CHAR, 0, private_comm_);
  MPI_File file;
  int mine = 1;
  std::string error;
  if (PMPI_File_open(private_comm_, tmp.c_str(), MPI_MODE_WRONLY, MPI_INFO_NULL, &file) !=
      MPI_SUCCESS) {
    error = "pilgrim: cannot open " + tmp + " with MPI-IO";
    mine = 0;
  }
  unsigned long long entry[3] = {0, 0, 0}; // offset, size, CRC
  if (mine) {
    uint64_t offset = 0, size = 0;
    uint32_t crc = 0;
    mine = timing_.write_section(private_comm_, file, head[1], rank_clock_block(), offset, size,
                                 crc, error);
    entry[0] = offset;
    entry[1] = size;
    entry[2] = crc;
    PMPI_File_close(&file);
  }
  timing_.close();
  if (!mine)
    std::fprintf(stderr, "%s\n", error.c_str());
  int all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, private_comm_);
  std::vector<unsigned long long> entries(world_rank_ == 0 ? 3 * size_t(world_size_) : 0);
  PMPI_Gather(entry, 3, MPI_UNSIGNED_LONG_LONG, entries.data(), 3, MPI_UNSIGNED_LONG_LONG, 0,
              private_comm_);
  if (world_rank_ != 0 || !all)
    return all != 0;
  try {
    for (int r = 0; r < world_size_; ++r)
      writer->add_external(static_cast<uint32_t>(r), entries[3 * r], entries[3 * r + 1],
                           static_cast<uint32_t>(entries[3 * r + 2]));
    writer->finish();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim: %s\n", e.what());
    return false;
  }
  return true;
}

void Recorder::print_summary() {
  std::vector<unsigned long long> counts(traced_function_count(), 0),
      total(traced_function_count(), 0);
  for (uint32_t t = 0; t < cst_.size(); ++t) {
    const long f = traced_function_index(function_id_of(cst_.key(t)));
    if (f >= 0)
      counts[static_cast<size_t>(f)] += stats_[t].count;
  }
  PMPI_Reduce(counts.data(), total.data(), static_cast<int>(counts.size()), MPI_UNSIGNED_LONG_LONG,
              MPI_SUM, 0, private_comm_);
  unsigned long long mem = memory_bytes(), max_mem = 0;
  PMPI_Reduce(&mem, &max_mem, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, private_comm_);
  // The slowest rank's times, in one reduction: call sites, merge, clock
  // sync at MPI_Init and at MPI_Finalize.
  long long ns[4] = {finalize_sites_ns_, finalize_merge_ns_, clock_sync_ns_[0], clock_sync_ns_[1]};
  long long max_ns[4] = {0, 0, 0, 0};
  PMPI_Reduce(ns, max_ns, 4, MPI_LONG_LONG, MPI_MAX, 0, private_comm_);
  if (world_rank_ != 0)
    return;
  std::vector<size_t> order;
  unsigned long long sum = 0;
  for (size_t i = 0; i < total.size(); ++i)
    if (total[i]) {
      order.push_back(i);
      sum += total[i];
    }
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (total[a] != total[b])
      return total[a] > total[b];
    return std::strcmp(traced_function(a).name, traced_function(b).name) < 0;
  });
  std::printf("pilgrim: %llu MPI calls on %d ranks\n", sum, world_size_);
  for (size_t i : order)
    std::printf("pilgrim: %-28s %12llu\n", traced_function(i).name, total[i]);
  std::printf("pilgrim: runtime memory %llu bytes (grammar, CST, registries; largest rank)\n",
              max_mem);
  std::printf("pilgrim: MPI_Finalize: call sites %.1f ms, cross-rank merge %.1f ms (slowest "
              "rank), writing %.1f ms\n",
              static_cast<double>(max_ns[0]) * 1e-6, static_cast<double>(max_ns[1]) * 1e-6,
              static_cast<double>(finalize_write_ns_) * 1e-6);
  if (per_call_)
    std::printf("pilgrim: clock sync %.2f ms at MPI_Init, %.2f ms at MPI_Finalize (slowest rank)\n",
                static_cast<double>(max_ns[2]) * 1e-6, static_cast<double>(max_ns[3]) * 1e-6);
  std::printf("pilgrim: trace written to %s\n", settings.output.c_str());
  std::fflush(stdout);
}

} // namespace pilgrim::rt
