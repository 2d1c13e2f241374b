// The message arrows of the Chrome export: every point-to-point message the
// shared matcher (tools/matching/message_matching.h, the one pilgrim-check
// uses) matched, from the call that started the send (MPI_Send, MPI_Isend,
// MPI_Start, ...) to the call that completed the receive (MPI_Recv, or the
// MPI_Wait* / MPI_Test* of an MPI_Irecv). A flow is exported only when both
// of its ends are: both ranks selected (--ranks) and both calls inside the
// window (--time), so that every start has its end.
#pragma once

#include <cstdint>
#include <vector>

#include "export_options.h"
#include "message_matching.h"
#include "pilgrim/reader.h"

namespace pilgrim::exporter {

class ChromeFlows {
public:
  // One end of a flow at a call of a rank.
  struct End {
    uint64_t index = 0; // the call's position in its rank's sequence
    uint64_t flow = 0;  // the flow's id (shared by its two ends)
    bool out = false;   // true: the send (flow start); false: the receive
  };

  // Matches the trace's messages and keeps those whose ends are exported
  // (`selected[r]`: rank r is). Memory: the matched messages, while this is
  // built, then two ends per kept flow.
  ChromeFlows(const reader::TraceFile &trace, const std::vector<bool> &selected,
              const ExportOptions &options);

  // Rank `rank`'s flow ends in call order.
  const std::vector<End> &ends(uint32_t rank) const { return ends_[rank]; }
  uint64_t count() const { return count_; }
  // What the matcher could not match (sends without receives and the like).
  uint64_t unmatched() const { return unmatched_; }

private:
  std::vector<std::vector<End>> ends_;
  uint64_t count_ = 0;
  uint64_t unmatched_ = 0;
};

} // namespace pilgrim::exporter
