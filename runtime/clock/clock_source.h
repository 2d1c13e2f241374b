// Which clock ticks() reads (clock.h), chosen once at MPI_Init, and what
// the trace records about it (pilgrim/rank_clock.h).
//   PILGRIM_CLOCK=tsc|monotonic  default: tsc where the CPU has an invariant
//                                TSC, else monotonic
//   PILGRIM_TEST_CLOCK_OFFSET_NS=X  test hook: rank r's clock reads r*X ns
//                                late; implies (and needs) monotonic
#pragma once

#include "clock.h"
#include "pilgrim/rank_clock.h"

#include <string>

namespace pilgrim::rt {

// Reads the two variables and sets the clock. False with a one-line error
// ("pilgrim: invalid PILGRIM_CLOCK=...") on a value it cannot honour.
bool choose_clock(int world_rank, std::string &error);

// The rank's clock record: source, calibration (the run's TickRate), the
// resolution (the smallest nonzero step of the TSC seen at choose_clock, in
// ns, or clock_getres of CLOCK_MONOTONIC) and the two syncs.
RankClock describe_clock(const TickRate &rate, const ClockSync &init, const ClockSync &finalize);

} // namespace pilgrim::rt
