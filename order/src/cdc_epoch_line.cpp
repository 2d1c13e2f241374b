// epoch_line / in_chunk: the chunk's largest clock per sender (the paper's
// §3.5, Fig. 8) and the test replay makes with it.
#include "pilgrim/cdc_epoch_line.h"

#include <algorithm>

namespace pilgrim::order {

EpochLine epoch_line(const std::vector<MessageId> &messages) {
  std::vector<EpochEntry> all;
  all.reserve(messages.size());
  for (const MessageId &m : messages)
    all.push_back(EpochEntry{m.rank, m.clock});
  std::sort(all.begin(), all.end(), [](const EpochEntry &a, const EpochEntry &b) {
    return a.rank != b.rank ? a.rank < b.rank : a.clock > b.clock;
  });
  EpochLine line;
  for (const EpochEntry &e : all) // the first of each rank has its largest clock
    if (line.entries.empty() || line.entries.back().rank != e.rank)
      line.entries.push_back(e);
  return line;
}

bool in_chunk(const EpochLine &line, const MessageId &message) {
  const auto at = std::lower_bound(line.entries.begin(), line.entries.end(), message.rank,
                                   [](const EpochEntry &e, int32_t rank) { return e.rank < rank; });
  return at != line.entries.end() && at->rank == message.rank && message.clock <= at->clock;
}

} // namespace pilgrim::order
