// How pilgrim-stats (and pilgrim-dump --stats, its alias) open a trace: through
// libpilgrim-reader's public API (reader/include/pilgrim/reader.h, linked
// statically), the same reading a user's analysis gets, and the ranks the
// report covers.
#pragma once

#include <cstdint>
#include <string>

#include "pilgrim/reader.h"

namespace pilgrim {

struct TraceInput {
  std::string path;
  reader::TraceFile file;
  int64_t rank = -1;       // the rank selected; -1: every rank
  uint32_t first_rank = 0; // the selected ranks: [first_rank, end_rank)
  uint32_t end_rank = 0;
};

// The ranks [first, end) that `rank` selects of a trace's `nranks` (rank < 0:
// every rank); a rank the trace does not have is an error naming `path`.
struct RankSelection {
  uint32_t first = 0;
  uint32_t end = 0;
};
RankSelection select_ranks(const std::string &path, uint32_t nranks, int64_t rank);

// Opens the trace at `path` (every signature decoded, so that a bad one gives
// an error before any output). rank < 0 selects every rank; a rank the trace
// does not have is an error. Throws TraceError ("PATH: ...").
TraceInput read_trace_input(const std::string &path, int64_t rank);

} // namespace pilgrim
