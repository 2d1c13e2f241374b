#include "trace_input.h"

#include <utility>

#include "pilgrim/count_text.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

RankSelection select_ranks(const std::string &path, uint32_t nranks, int64_t rank) {
  if (rank >= 0 && static_cast<uint64_t>(rank) >= nranks)
    throw TraceError(path + ": rank " + std::to_string(rank) + " out of range (the trace has " +
                     count_text(nranks, "rank") + ")");
  if (rank < 0)
    return {0, nranks};
  return {static_cast<uint32_t>(rank), static_cast<uint32_t>(rank) + 1};
}

TraceInput read_trace_input(const std::string &path, int64_t rank) {
  reader::TraceFile file(path);
  const RankSelection ranks = select_ranks(path, file.nranks(), rank);
  return TraceInput{path, std::move(file), rank < 0 ? -1 : rank, ranks.first, ranks.end};
}

} // namespace pilgrim
