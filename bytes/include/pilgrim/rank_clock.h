// The clock record of one rank (docs/FORMAT.md, "Clock block"): which clock
// the rank read, its calibration and resolution, and its two synchronisations
// with rank 0 (at MPI_Init and at MPI_Finalize). Readers map the rank's
// ticks onto rank 0's timeline with it (model/clock_alignment.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim {

// One exchange with rank 0. `tick` is this rank's clock when it answered
// rank 0's ping; `rank0_tick` is rank 0's clock at the same moment (the
// midpoint of rank 0's shortest round trip); `rtt_rank0_ticks` is that round
// trip in rank 0's ticks. rtt -1: no sync (tick and rank0_tick are then 0).
// Rank 0 itself: rank0_tick == tick, rtt 0.
struct ClockSync {
  int64_t tick = 0;
  int64_t rank0_tick = 0;
  int64_t rtt_rank0_ticks = -1;

  bool present() const { return rtt_rank0_ticks >= 0; }
};

enum class ClockSource : uint8_t {
  Monotonic = 0, // CLOCK_MONOTONIC, one tick = 1 ns
  Tsc = 1,       // the invariant TSC (RDTSC), calibrated against CLOCK_MONOTONIC
};

struct RankClock {
  uint8_t source = 0;         // ClockSource
  double ns_per_tick = 1.0;   // calibration over the run
  double resolution_ns = 1.0; // smallest step the clock was seen to take
  ClockSync init, finalize;
};

// Bytes of a clock block (fixed size).
constexpr size_t kRankClockBytes = 65;

// Appends the 65-byte clock block.
void encode_rank_clock(const RankClock &clock, std::vector<uint8_t> &out);

// Reads one clock block at p and advances p past it. False with a one-line
// `err` (p unchanged) on truncation or an invalid field; never reads past end.
bool decode_rank_clock(const uint8_t *&p, const uint8_t *end, RankClock &clock, std::string &err);

} // namespace pilgrim
