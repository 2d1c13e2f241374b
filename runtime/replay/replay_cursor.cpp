#include "replay_cursor.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace pilgrim::rt {

ReplayCursor &replay_cursor() {
  static ReplayCursor cursor;
  return cursor;
}

void ReplayCursor::start(std::vector<MatchEvent> events, const std::string &source, int rank,
                         double watchdog_s, const char *watchdog_setting,
                         MPI_Comm private_comm) {
  events_ = std::move(events);
  source_ = source;
  rank_ = rank;
  watchdog_s_ = watchdog_s;
  watchdog_setting_ = watchdog_setting;
  private_comm_ = private_comm;
  next_ = 0;
}

const MatchEvent &ReplayCursor::next(const char *function) {
  if (next_ >= events_.size())
    diverge(nullptr, std::string("the program called ") + function + " after the trace's last " +
                         std::to_string(events_.size()) + " matching calls");
  const MatchEvent &e = events_[next_];
  if (e.function != function)
    diverge(&e, std::string("the program called ") + function + " where the trace has " +
                    e.function);
  ++next_;
  return e;
}

void ReplayCursor::diverge(const MatchEvent *e, const std::string &why) const {
  std::string where = "rank " + std::to_string(rank_);
  if (e)
    where += ", call " + std::to_string(e->call) + " (" + e->function + ")";
  std::fprintf(stderr, "pilgrim: replay of %s diverged: %s: %s\n", source_.c_str(),
               where.c_str(), why.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void ReplayCursor::check_finished() const {
  if (next_ < events_.size())
    diverge(&events_[next_], "the program ended after " + std::to_string(next_) + " of the " +
                                 std::to_string(events_.size()) + " matching calls the trace has");
}

} // namespace pilgrim::rt
