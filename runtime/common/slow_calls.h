// What sends every traced call to its constructor's slow path
// (Call::begin_slow_), in one byte that the hot path loads once with the
// thread's own (ThreadState::rare): tracing not recording (before MPI_Init,
// tracing off, after MPI_Finalize), MPI_THREAD_MULTIPLE, and plugin-built
// code that stores its site ids (plugin_sites.h). The slow path reads each
// condition again itself, so a bit only has to be set before its condition
// can matter and cleared after it stopped.
#pragma once

#include <atomic>
#include <cstdint>

namespace pilgrim::rt {

// Bits below 8: ThreadState::rare's are 8 and up.
enum SlowCallBit : uint8_t {
  kSlowNotRecording = 1,
  kSlowMultithreaded = 2,
  kSlowPluginSites = 4,
};

extern std::atomic<uint8_t> g_slow_calls;

inline uint8_t slow_calls() noexcept { return g_slow_calls.load(std::memory_order_relaxed); }
inline void set_slow_call_bit(SlowCallBit bit, bool on) noexcept {
  if (on)
    g_slow_calls.fetch_or(bit, std::memory_order_acq_rel);
  else
    g_slow_calls.fetch_and(static_cast<uint8_t>(~bit), std::memory_order_acq_rel);
}

} // namespace pilgrim::rt
