#include "pilgrim/clock_alignment.h"

namespace pilgrim {

namespace {

// a - b without overflow, as a double (ticks of garbage traces may be any
// 64-bit values; a real difference is exact below 2^53).
double diff(int64_t a, int64_t b) {
  return static_cast<double>(static_cast<__int128>(a) - static_cast<__int128>(b));
}

// The result is relative to rank0.init.tick, so that large tick values keep
// their precision; rank0_ticks adds it back.
double rank0_ticks_since_init(const RankClock &rank, const RankClock &rank0, int64_t tick) {
  const ClockSync &i = rank.init, &f = rank.finalize;
  const int64_t origin = rank0.init.tick;
  const double rate_ratio = rank.ns_per_tick / rank0.ns_per_tick;
  if (i.present() && f.present() && f.tick != i.tick) {
    const double slope = diff(f.rank0_tick, i.rank0_tick) / diff(f.tick, i.tick);
    return diff(i.rank0_tick, origin) + diff(tick, i.tick) * slope;
  }
  if (i.present())
    return diff(i.rank0_tick, origin) + diff(tick, i.tick) * rate_ratio;
  if (f.present())
    return diff(f.rank0_tick, origin) + diff(tick, f.tick) * rate_ratio;
  return diff(tick, origin) * rate_ratio;
}

} // namespace

double rank0_ticks(const RankClock &rank, const RankClock &rank0, int64_t tick) {
  return static_cast<double>(rank0.init.tick) + rank0_ticks_since_init(rank, rank0, tick);
}

double aligned_seconds(const RankClock &rank, const RankClock &rank0, int64_t tick) {
  return rank0_ticks_since_init(rank, rank0, tick) * rank0.ns_per_tick * 1e-9;
}

} // namespace pilgrim
