#include "replay_script.h"

#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_reader.h"

#include <cstdio>
#include <exception>

namespace pilgrim::rt {

bool g_replaying = false;

ReplayScript &replay_script() {
  static ReplayScript script;
  return script;
}

bool ReplayScript::load(const std::string &path, int rank, int size, double watchdog_s,
                        MPI_Comm private_comm, std::string &error) {
  path_ = path;
  rank_ = rank;
  watchdog_s_ = watchdog_s;
  private_comm_ = private_comm;
  try {
    const Trace trace = read_trace(path);
    if (trace.nranks() != static_cast<uint32_t>(size)) {
      error = "pilgrim: cannot replay " + path + ": it was recorded with " +
              std::to_string(trace.nranks()) + " ranks, this run has " + std::to_string(size);
      return false;
    }
    const std::vector<DecodedCall> cst = decode_cst(trace);
    bool threads = false;
    events_ = match_events(trace, cst, static_cast<uint32_t>(rank), &threads);
    if (threads) {
      error = "pilgrim: cannot replay " + path +
              ": its ranks called MPI from several threads, whose order across threads the "
              "trace does not hold";
      return false;
    }
  } catch (const std::exception &e) {
    error = "pilgrim: cannot replay " + path + ": " + e.what();
    return false;
  }
  next_ = 0;
  return true;
}

const MatchEvent &ReplayScript::next(const char *function) {
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

void ReplayScript::diverge(const MatchEvent *e, const std::string &why) const {
  std::string where = "rank " + std::to_string(rank_);
  if (e)
    where += ", call " + std::to_string(e->call) + " (" + e->function + ")";
  std::fprintf(stderr, "pilgrim: replay of %s diverged: %s: %s\n", path_.c_str(), where.c_str(),
               why.c_str());
  std::fflush(stderr);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void ReplayScript::check_finished() const {
  if (next_ < events_.size())
    diverge(&events_[next_], "the program ended after " + std::to_string(next_) + " of the " +
                                 std::to_string(events_.size()) + " matching calls the trace has");
}

bool start_replay(const std::string &path, int rank, int size, double watchdog_s,
                  MPI_Comm private_comm, std::string &error) {
  if (!replay_script().load(path, rank, size, watchdog_s, private_comm, error))
    return false;
  g_replaying = true;
  return true;
}

} // namespace pilgrim::rt
