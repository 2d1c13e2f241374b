#include "replay_script.h"

#include "pilgrim/match_events.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_reader.h"
#include "replay_cursor.h"

#include <exception>

namespace pilgrim::rt {

bool g_replaying = false;

bool start_replay(const std::string &path, int rank, int size, double watchdog_s,
                  MPI_Comm private_comm, std::string &error) {
  std::vector<MatchEvent> events;
  try {
    const Trace trace = read_trace(path);
    if (trace.nranks() != static_cast<uint32_t>(size)) {
      error = "pilgrim: cannot replay " + path + ": it was recorded with " +
              std::to_string(trace.nranks()) + " ranks, this run has " + std::to_string(size);
      return false;
    }
    const std::vector<DecodedCall> cst = decode_cst(trace);
    bool threads = false;
    events = match_events(trace, cst, static_cast<uint32_t>(rank), &threads);
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
  replay_cursor().start(std::move(events), path, rank, watchdog_s, "PILGRIM_REPLAY_WATCHDOG",
                        private_comm);
  g_replaying = true;
  return true;
}

} // namespace pilgrim::rt
