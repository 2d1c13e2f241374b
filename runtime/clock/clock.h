// The clock of the hot path. On x86-64 with an invariant TSC (constant rate,
// never stopped) a timestamp is one RDTSC: about half the cost of
// clock_gettime under a hypervisor, and no system call anywhere. Tick counts
// become nanoseconds only when the trace is written, with a rate measured
// against CLOCK_MONOTONIC over the whole run (see TickRate). Without an
// invariant TSC, ticks are CLOCK_MONOTONIC nanoseconds.
#pragma once

#include <cstdint>
#include <ctime>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace pilgrim::rt {

inline int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Whether ticks() reads the TSC; decided once, at MPI_Init (clock_source.h).
inline bool g_use_tsc = false;
// Test hook (PILGRIM_TEST_CLOCK_OFFSET_NS): added to CLOCK_MONOTONIC readings
// only, so that the TSC path stays one RDTSC; 0 outside the tests.
inline int64_t g_monotonic_offset_ns = 0;

// A tick of the CLOCK_MONOTONIC clock: one nanosecond, shifted by the hook.
inline int64_t monotonic_ticks() { return monotonic_ns() + g_monotonic_offset_ns; }

inline bool invariant_tsc_available() {
#if defined(__x86_64__)
  unsigned a, b, c, d;
  if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
    return false;
  __get_cpuid(0x80000007u, &a, &b, &c, &d);
  return (d >> 8) & 1u; // "Invariant TSC"
#else
  return false;
#endif
}

// One TSC reading (only where g_use_tsc holds).
__attribute__((always_inline)) inline int64_t tsc_ticks() {
#if defined(__x86_64__)
  return static_cast<int64_t>(__rdtsc());
#else
  return monotonic_ticks();
#endif
}

inline int64_t ticks() { return g_use_tsc ? tsc_ticks() : monotonic_ticks(); }

// What a traced call reads at its start and its end, one test on the hot
// path: nothing (PILGRIM_TIMING=none), ticks() on the TSC, or ticks() on
// CLOCK_MONOTONIC.
enum class CallClock : uint8_t { None, Tsc, Monotonic };
__attribute__((always_inline)) inline void stamp(CallClock c, int64_t &t) {
  if (__builtin_expect(c == CallClock::Tsc, 1))
    t = tsc_ticks();
  else if (c == CallClock::Monotonic)
    t = monotonic_ticks();
}

// Nanoseconds per tick, from two (ticks, monotonic ns) readings far apart.
class TickRate {
public:
  void begin() {
    t0_ = ticks();
    ns0_ = monotonic_ns();
  }
  // Ends the measurement; waits until at least 2 ms have passed, so that a
  // very short run still gets a rate good to about 0.1%.
  void end() {
    int64_t ns;
    do
      ns = monotonic_ns();
    while (ns - ns0_ < 2000000);
    const int64_t t = ticks();
    ns_per_tick_ = t > t0_ ? static_cast<double>(ns - ns0_) / static_cast<double>(t - t0_) : 1.0;
  }
  double ns_per_tick() const { return g_use_tsc ? ns_per_tick_ : 1.0; }

private:
  int64_t t0_ = 0, ns0_ = 0;
  double ns_per_tick_ = 1.0;
};

} // namespace pilgrim::rt
