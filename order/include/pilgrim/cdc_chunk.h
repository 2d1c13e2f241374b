// One chunk of a table key's record as Clock Delta Compression stores it
// (the paper's Fig. 8): the with_next, unmatched-test and permutation tables
// and the epoch line. The (rank, clock) of the messages is not stored:
// replay receives the messages again, with the same clocks, and rebuilds the
// reference order from them. Built from the record rows, and turned back
// into the rows from the chunk and the messages replay received.
#pragma once

#include "pilgrim/cdc_epoch_line.h"
#include "pilgrim/cdc_event.h"
#include "pilgrim/cdc_permutation.h"
#include "pilgrim/cdc_tables.h"

#include <cstdint>
#include <vector>

namespace pilgrim::order {

// The most messages one chunk holds (reference indices fit 32 bits).
inline constexpr uint64_t kMaxChunkMessages = 0x7fffffff;

struct Chunk {
  uint64_t messages = 0; // N, the matched messages of the chunk
  std::vector<uint64_t> with_next;
  std::vector<UnmatchedTests> unmatched;
  std::vector<Move> moves;
  EpochLine epoch;
};

// The chunk of `rows` (split_rows' rules; std::invalid_argument also for
// more than kMaxChunkMessages messages).
Chunk chunk_of_rows(const std::vector<EventRow> &rows);

// The rows again (join_rows' canonical form), from the chunk and the
// messages of the chunk in any order (as replay receives them). Throws
// TraceError when `received` is not as many messages as the chunk holds, or
// the moves do not decode.
std::vector<EventRow> rows_of_chunk(const Chunk &chunk, const std::vector<MessageId> &received);

} // namespace pilgrim::order
