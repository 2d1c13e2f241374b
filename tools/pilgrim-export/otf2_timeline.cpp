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
  std::vector<MatchedMessage> messages = match_messages(trace, options).messages;
  // One sender's times at a time.
  std::sort(messages.begin(), messages.end(), [](const MatchedMessage &x, const MatchedMessage &y) {
    return x.send.rank < y.send.rank;
  });
  for (size_t i = 0; i < messages.size();) {
    const uint32_t sender = messages[i].send.rank;
    const RankTimeline times(trace, sender, TimeKind::Lossy);
    for (; i < messages.size() && messages[i].send.rank == sender; ++i) {
      const MatchedMessage &m = messages[i];
      if (m.recv.rank < by_rank_.size())
        by_rank_[m.recv.rank].push_back(
            Floor{m.recv_complete.index, m.recv.index, times.start(m.send.index)});
    }
  }
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
