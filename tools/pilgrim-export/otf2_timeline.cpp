#include "otf2_timeline.h"

#include <algorithm>
#include <cmath>

#include "message_matching.h"

namespace pilgrim::exporter {

namespace {

constexpr uint64_t kOrderedStep = 1000; // ns between calls placed in order
// Seconds on the aligned timeline count from rank 0's clock sync at
// MPI_Init; other ranks' first calls may lie slightly before it. The
// archive's clock starts at the run's start (Unix ns, down to a whole
// microsecond, so that calls placed in order fall on round times) so none
// is negative.
uint64_t origin(const reader::TraceFile &trace) {
  const int64_t unix_ns = trace.header().start_time_unix_ns;
  const uint64_t ns = unix_ns > 1000000000 ? static_cast<uint64_t>(unix_ns) : 1000000000u;
  return ns - ns % 1000;
}

} // namespace

TimeKind time_kind(const reader::TraceFile &trace) {
  if (!trace.has_call_times())
    return TimeKind::Ordered;
  return static_cast<TimingMode>(trace.header().timing_mode) == TimingMode::Lossless
             ? TimeKind::Real
             : TimeKind::Lossy;
}

std::string time_description(const reader::TraceFile &trace, TimeKind kind, uint64_t clamped) {
  // The MPI's version up to its first comma ("Open MPI v4.1.4").
  const std::string &version = trace.header().mpi_version;
  const std::string base = "Pilgrim trace of " + std::to_string(trace.nranks()) + " ranks (" +
                           version.substr(0, version.find(',')) + "). ";
  switch (kind) {
  case TimeKind::Real:
    return base + "Times: every call's start and end as recorded (timing mode lossless), "
                  "aligned to rank 0's clock.";
  case TimeKind::Lossy:
    return base + "Times: every call's start and end within the bounds of the lossy timing mode " +
           trace.header().timing_spec +
           ", aligned to rank 0's clock. Each receive event is clamped to no earlier than its "
           "matched send (" +
           std::to_string(clamped) +
           " receives were moved); a location's later events move with it only where they "
           "would otherwise go back in time.";
  case TimeKind::Ordered:
    break;
  }
  return base + "Times: NOT REAL. The trace keeps no per-call times (timing mode " +
         timing_mode_text(trace.header().timing_mode) +
         "): each rank's calls are placed in order, 1 microsecond apart; only the order of a "
         "rank's calls is meaningful.";
}

RankTimeline::RankTimeline(const reader::TraceFile &trace, uint32_t rank, TimeKind kind)
    : origin_ns_(origin(trace)) {
  if (kind != TimeKind::Ordered)
    times_ = trace.call_times(rank);
}

uint64_t RankTimeline::at(double seconds) const {
  const int64_t ns = static_cast<int64_t>(std::llround(seconds * 1e9));
  if (ns < 0 && static_cast<uint64_t>(-ns) > origin_ns_)
    return 0;
  return static_cast<uint64_t>(static_cast<int64_t>(origin_ns_) + ns);
}

uint64_t RankTimeline::start(uint64_t call) const {
  if (times_.empty())
    return origin_ns_ + call * kOrderedStep;
  return call < times_.size() ? at(times_[call].start) : at(times_.back().end);
}

uint64_t RankTimeline::end(uint64_t call) const {
  if (times_.empty())
    return origin_ns_ + call * kOrderedStep + kOrderedStep / 2;
  return call < times_.size() ? at(times_[call].end) : at(times_.back().end);
}

ReceiveFloors::ReceiveFloors(const reader::TraceFile &trace) : by_rank_(trace.nranks()) {
  MatchOptions options;
  options.full_check = false;
  struct Message {
    uint32_t sender, receiver;
    uint64_t send, completed, posted, ns;
  };
  std::vector<Message> messages;
  for (const MatchedMessage &m : match_messages(trace, options).messages)
    if (m.send.rank < trace.nranks() && m.recv.rank < trace.nranks())
      messages.push_back(
          Message{m.send.rank, m.recv.rank, m.send.index, m.recv_complete.index, m.recv.index, 0});
  // A send's event lies where the writer puts it: at its decoded start, or
  // later where an earlier clamp on its rank pushed the rank's events
  // forward. Iterate to the fixed point: each pass replays every rank's
  // clock (start, end and the floors of the receives its calls complete)
  // and gives each send its written start; floors only grow.
  std::vector<std::vector<size_t>> sent(trace.nranks()), received(trace.nranks());
  for (size_t k = 0; k < messages.size(); ++k) {
    sent[messages[k].sender].push_back(k);
    received[messages[k].receiver].push_back(k);
  }
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    std::sort(sent[r].begin(), sent[r].end(),
              [&](size_t x, size_t y) { return messages[x].send < messages[y].send; });
    std::sort(received[r].begin(), received[r].end(),
              [&](size_t x, size_t y) { return messages[x].completed < messages[y].completed; });
  }
  for (int pass = 0; pass < 64; ++pass) {
    bool changed = false;
    for (uint32_t r = 0; r < trace.nranks(); ++r) {
      if (sent[r].empty())
        continue;
      const RankTimeline times(trace, r, TimeKind::Lossy);
      uint64_t last = 0;
      size_t s = 0, c = 0;
      for (uint64_t i = 0; s < sent[r].size(); ++i) {
        last = std::max(last, times.start(i));
        for (; s < sent[r].size() && messages[sent[r][s]].send == i; ++s)
          if (messages[sent[r][s]].ns < last) {
            messages[sent[r][s]].ns = last;
            changed = true;
          }
        last = std::max(last, times.end(i));
        for (; c < received[r].size() && messages[received[r][c]].completed == i; ++c)
          last = std::max(last, messages[received[r][c]].ns);
      }
    }
    if (!changed)
      break;
  }
  for (const Message &m : messages)
    by_rank_[m.receiver].push_back(Floor{m.completed, m.posted, m.ns});
  for (std::vector<Floor> &v : by_rank_)
    std::sort(v.begin(), v.end());
}

uint64_t ReceiveFloors::floor(uint32_t rank, uint64_t completed, uint64_t posted) const {
  if (rank >= by_rank_.size())
    return 0;
  const std::vector<Floor> &v = by_rank_[rank];
  const auto it = std::lower_bound(v.begin(), v.end(), Floor{completed, posted, 0});
  return it != v.end() && it->completed == completed && it->posted == posted ? it->ns : 0;
}

} // namespace pilgrim::exporter
