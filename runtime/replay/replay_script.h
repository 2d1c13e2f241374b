// Order replay from a trace: at MPI_Init, when PILGRIM_REPLAY names one, this
// rank's matching events are read from it (pilgrim/match_events.h) into the
// cursor (replay_cursor.h) and the run replays (replay_flag.h)
// (docs/guide/replay.md).
#pragma once

#include "replay_flag.h"

#include <mpi.h>

#include <string>

namespace pilgrim::rt {

// Starts order replay from `path`, or returns false with one line in `error`
// (naming the trace) when the trace cannot be read, has another number of
// ranks than `size`, or was recorded with calls from several threads.
bool start_replay(const std::string &path, int rank, int size, double watchdog_s,
                  MPI_Comm private_comm, std::string &error);

} // namespace pilgrim::rt
