// chunk_of_rows / rows_of_chunk: the record rows of one table key to the
// tables CDC stores (Fig. 8) and back, given the messages replay received.
#include "pilgrim/cdc_chunk.h"

#include "pilgrim/trace_error.h"

#include <stdexcept>
#include <string>

namespace pilgrim::order {

Chunk chunk_of_rows(const std::vector<EventRow> &rows) {
  RecordTables tables = split_rows(rows);
  if (tables.matched.size() > kMaxChunkMessages)
    throw std::invalid_argument("CDC chunk: " + std::to_string(tables.matched.size()) +
                                " messages exceed " + std::to_string(kMaxChunkMessages));
  Chunk chunk;
  chunk.messages = tables.matched.size();
  chunk.moves = encode_order(tables.matched);
  chunk.epoch = epoch_line(tables.matched);
  chunk.with_next = std::move(tables.with_next);
  chunk.unmatched = std::move(tables.unmatched);
  return chunk;
}

std::vector<EventRow> rows_of_chunk(const Chunk &chunk, const std::vector<MessageId> &received) {
  if (received.size() != chunk.messages)
    throw TraceError("CDC chunk: replay holds " + std::to_string(received.size()) +
                     " messages for a chunk of " + std::to_string(chunk.messages));
  RecordTables tables;
  tables.matched = decode_order(received, chunk.moves);
  tables.with_next = chunk.with_next;
  tables.unmatched = chunk.unmatched;
  try {
    return join_rows(tables);
  } catch (const std::invalid_argument &e) {
    throw TraceError(e.what());
  }
}

} // namespace pilgrim::order
