// Order replay's script: this rank's matching events from the trace being
// replayed (pilgrim/match_events.h), the cursor over them, and the one line
// a divergence ends the run with. Loaded at MPI_Init when PILGRIM_REPLAY
// names a trace (docs/guide/replay.md).
#pragma once

#include "pilgrim/match_events.h"
#include "replay_flag.h"

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::rt {

class ReplayScript {
public:
  // Reads rank `rank`'s events from `path`. False with one line in `error`
  // (naming the trace) when the trace cannot be read, has another number of
  // ranks than `size`, or was recorded with calls from several threads.
  bool load(const std::string &path, int rank, int size, double watchdog_s,
            MPI_Comm private_comm, std::string &error);

  // The next event, which the program's call of `function` must be; on any
  // other function, or past the last event, the run ends with one line
  // (diverge).
  const MatchEvent &next(const char *function);

  // Ends the run: "pilgrim: replay of TRACE diverged: rank R, call C
  // (FUNCTION): WHY". `event`: the event the program was at (nullptr: past
  // the last).
  [[noreturn]] void diverge(const MatchEvent *event, const std::string &why) const;

  // At MPI_Finalize: the events the program did not reach end the run too.
  void check_finished() const;

  double watchdog_s() const { return watchdog_s_; }
  MPI_Comm private_comm() const { return private_comm_; }
  size_t size() const { return events_.size(); }

private:
  std::string path_;
  int rank_ = 0;
  double watchdog_s_ = 60;
  MPI_Comm private_comm_ = MPI_COMM_NULL;
  std::vector<MatchEvent> events_;
  size_t next_ = 0;
};

ReplayScript &replay_script();

// Starts order replay from `path` (PILGRIM_REPLAY) at MPI_Init, or returns
// false with one line in `error`.
bool start_replay(const std::string &path, int rank, int size, double watchdog_s,
                  MPI_Comm private_comm, std::string &error);

} // namespace pilgrim::rt
