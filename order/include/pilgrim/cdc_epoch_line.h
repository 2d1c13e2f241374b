// The epoch line (the paper's §3.5, Fig. 8): per sender rank, the largest
// clock a chunk received from it. Replay asks it whether a message it
// received belongs to the chunk it replays or to a later one: messages of
// one sender carry growing clocks, so one above the line was received after
// the chunk was cut.
#pragma once

#include "pilgrim/cdc_event.h"

#include <cstdint>
#include <vector>

namespace pilgrim::order {

struct EpochEntry {
  int32_t rank = 0;
  uint64_t clock = 0;

  friend bool operator==(const EpochEntry &a, const EpochEntry &b) {
    return a.rank == b.rank && a.clock == b.clock;
  }
};

// Ascending by rank, one entry per sender of the chunk.
struct EpochLine {
  std::vector<EpochEntry> entries;
};

EpochLine epoch_line(const std::vector<MessageId> &messages);

// Whether message (rank, clock) belongs to the chunk of `line` (its sender
// is on the line and its clock at or below the sender's), rather than to a
// later chunk. The chunks before are replayed already.
bool in_chunk(const EpochLine &line, const MessageId &message);

} // namespace pilgrim::order
