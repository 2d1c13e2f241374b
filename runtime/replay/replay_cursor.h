// Order replay's cursor: this rank's matching events (pilgrim/match_event.h)
// and the next one the program must call, the watchdog's limit, and the one
// line a divergence ends the run with. The runtime fills it from the trace
// being replayed (replay_script.h); a self-contained proxy of
// pilgrim-proxygen --order from the order compiled into it. Standard C++ and
// MPI only: such proxies compile this room's replay files into themselves
// (README.md).
#pragma once

#include "pilgrim/match_event.h"

#include <mpi.h>

#include <string>
#include <vector>

namespace pilgrim::rt {

class ReplayCursor {
public:
  // `source`: what the events came from, as divergence lines name it (a
  // trace's path); `watchdog_setting`: the variable that set `watchdog_s`.
  void start(std::vector<MatchEvent> events, const std::string &source, int rank,
             double watchdog_s, const char *watchdog_setting, MPI_Comm private_comm);

  // The next event, which the program's call of `function` must be; on any
  // other function, or past the last event, the run ends with one line
  // (diverge).
  const MatchEvent &next(const char *function);

  // Ends the run: "pilgrim: replay of SOURCE diverged: rank R, call C
  // (FUNCTION): WHY". `event`: the event the program was at (nullptr: past
  // the last).
  [[noreturn]] void diverge(const MatchEvent *event, const std::string &why) const;

  // At MPI_Finalize: the events the program did not reach end the run too.
  void check_finished() const;

  double watchdog_s() const { return watchdog_s_; }
  const char *watchdog_setting() const { return watchdog_setting_; }
  MPI_Comm private_comm() const { return private_comm_; }
  size_t size() const { return events_.size(); }

private:
  std::string source_;
  int rank_ = 0;
  double watchdog_s_ = 60;
  const char *watchdog_setting_ = "PILGRIM_REPLAY_WATCHDOG";
  MPI_Comm private_comm_ = MPI_COMM_NULL;
  std::vector<MatchEvent> events_;
  size_t next_ = 0;
};

ReplayCursor &replay_cursor();

} // namespace pilgrim::rt
