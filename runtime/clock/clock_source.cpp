#include "clock_source.h"

#include "pilgrim/settings_table.h"

#include <cerrno>
#include <cstdlib>
#include <ctime>

namespace pilgrim::rt {

namespace {

int64_t g_tsc_step = 1; // smallest nonzero TSC step seen, in ticks

int64_t smallest_tick_step() {
  int64_t best = INT64_MAX, prev = ticks();
  for (int i = 0; i < 1000; ++i) {
    const int64_t t = ticks();
    if (t > prev && t - prev < best)
      best = t - prev;
    prev = t;
  }
  return best == INT64_MAX ? 1 : best;
}

} // namespace

bool choose_clock(int world_rank, std::string &error) {
  const char *clock = std::getenv("PILGRIM_CLOCK");
  const char *offset = std::getenv("PILGRIM_TEST_CLOCK_OFFSET_NS");
  const std::string want = clock ? clock : "";
  if (clock && want != "tsc" && want != "monotonic") {
    error = "pilgrim: " + settings::invalid_value(*settings::find("PILGRIM_CLOCK"), want);
    return false;
  }
  if (want == "tsc" && !invariant_tsc_available()) {
    error = "pilgrim: invalid PILGRIM_CLOCK='tsc' (this CPU has no invariant TSC; allowed: "
            "monotonic)";
    return false;
  }
  int64_t offset_ns = 0;
  if (offset) {
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(offset, &end, 10);
    if (errno || end == offset || *end || v < -1000000000000LL || v > 1000000000000LL) {
      error = std::string("pilgrim: invalid PILGRIM_TEST_CLOCK_OFFSET_NS='") + offset +
              "' (allowed: an integer number of nanoseconds, at most 10^12 either way)";
      return false;
    }
    if (want == "tsc") {
      error = "pilgrim: invalid PILGRIM_CLOCK='tsc' with PILGRIM_TEST_CLOCK_OFFSET_NS (the "
              "offset applies to the monotonic clock only; allowed: monotonic)";
      return false;
    }
    const __int128 mine = static_cast<__int128>(v) * world_rank;
    if (mine > (static_cast<__int128>(1) << 62) || mine < -(static_cast<__int128>(1) << 62)) {
      error = std::string("pilgrim: invalid PILGRIM_TEST_CLOCK_OFFSET_NS='") + offset + "' (rank " +
              std::to_string(world_rank) + "'s offset overflows the clock)";
      return false;
    }
    offset_ns = static_cast<int64_t>(mine);
  }
  g_use_tsc = want == "tsc" || (want.empty() && !offset && invariant_tsc_available());
  g_monotonic_offset_ns = g_use_tsc ? 0 : offset_ns;
  g_tsc_step = g_use_tsc ? smallest_tick_step() : 1;
  return true;
}

RankClock describe_clock(const TickRate &rate, const ClockSync &init, const ClockSync &finalize) {
  RankClock c;
  c.source = static_cast<uint8_t>(g_use_tsc ? ClockSource::Tsc : ClockSource::Monotonic);
  c.ns_per_tick = rate.ns_per_tick();
  if (g_use_tsc) {
    c.resolution_ns = static_cast<double>(g_tsc_step) * c.ns_per_tick;
  } else {
    timespec res{};
    clock_getres(CLOCK_MONOTONIC, &res);
    c.resolution_ns = static_cast<double>(res.tv_sec) * 1e9 + static_cast<double>(res.tv_nsec);
  }
  c.init = init;
  c.finalize = finalize;
  return c;
}

} // namespace pilgrim::rt
