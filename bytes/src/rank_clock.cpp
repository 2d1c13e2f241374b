#include "pilgrim/rank_clock.h"

#include <cmath>
#include <cstring>

namespace pilgrim {

namespace {

void put_u64(std::vector<uint8_t> &out, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t get_u64(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i)
    v |= static_cast<uint64_t>(p[i]) << (8 * i);
  return v;
}

void put_f64(std::vector<uint8_t> &out, double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  put_u64(out, bits);
}

double get_f64(const uint8_t *p) {
  const uint64_t bits = get_u64(p);
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

void put_sync(std::vector<uint8_t> &out, const ClockSync &s) {
  put_u64(out, static_cast<uint64_t>(s.tick));
  put_u64(out, static_cast<uint64_t>(s.rank0_tick));
  put_u64(out, static_cast<uint64_t>(s.rtt_rank0_ticks));
}

bool get_sync(const uint8_t *p, const char *which, ClockSync &s, std::string &err) {
  s.tick = static_cast<int64_t>(get_u64(p));
  s.rank0_tick = static_cast<int64_t>(get_u64(p + 8));
  s.rtt_rank0_ticks = static_cast<int64_t>(get_u64(p + 16));
  if (s.rtt_rank0_ticks < -1) {
    err = std::string("clock block: ") + which + " round trip " +
          std::to_string(s.rtt_rank0_ticks) + " is negative";
    return false;
  }
  if (s.rtt_rank0_ticks == -1 && (s.tick != 0 || s.rank0_tick != 0)) {
    err = std::string("clock block: ") + which + " sync is absent but has ticks";
    return false;
  }
  return true;
}

} // namespace

void encode_rank_clock(const RankClock &clock, std::vector<uint8_t> &out) {
  out.reserve(out.size() + kRankClockBytes);
  out.push_back(clock.source);
  put_f64(out, clock.ns_per_tick);
  put_f64(out, clock.resolution_ns);
  put_sync(out, clock.init);
  put_sync(out, clock.finalize);
}

bool decode_rank_clock(const uint8_t *&p, const uint8_t *end, RankClock &clock, std::string &err) {
  if (end < p || static_cast<size_t>(end - p) < kRankClockBytes) {
    err = "clock block truncated: " + std::to_string(end < p ? 0 : end - p) + " of " +
          std::to_string(kRankClockBytes) + " bytes";
    return false;
  }
  RankClock c;
  c.source = p[0];
  if (c.source > static_cast<uint8_t>(ClockSource::Tsc)) {
    err = "clock block: unknown clock source " + std::to_string(c.source);
    return false;
  }
  c.ns_per_tick = get_f64(p + 1);
  if (!std::isfinite(c.ns_per_tick) || c.ns_per_tick <= 0) {
    err = "clock block: nanoseconds per tick is not a positive number";
    return false;
  }
  c.resolution_ns = get_f64(p + 9);
  if (!std::isfinite(c.resolution_ns) || c.resolution_ns < 0) {
    err = "clock block: resolution is not a non-negative number";
    return false;
  }
  if (!get_sync(p + 17, "MPI_Init", c.init, err) ||
      !get_sync(p + 41, "MPI_Finalize", c.finalize, err))
    return false;
  clock = c;
  p += kRankClockBytes;
  return true;
}

} // namespace pilgrim
