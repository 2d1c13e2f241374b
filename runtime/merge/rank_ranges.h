// Ranges of ranks that share one thing (a grammar, a communicator table), as
// the merge keeps them: sorted by first rank, adjacent ranges with the same
// value joined.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// Adds `ranges` (disjoint from `into`'s), their values renumbered through
// `value_map` (RankRange::grammar is the value), and joins neighbors.
inline void add_rank_ranges(std::vector<RankRange> &into, const std::vector<RankRange> &ranges,
                            const std::vector<uint32_t> &value_map) {
  for (const RankRange &x : ranges)
    into.push_back(RankRange{x.first, x.count, value_map.at(x.grammar)});
  std::sort(into.begin(), into.end(),
            [](const RankRange &a, const RankRange &b) { return a.first < b.first; });
  std::vector<RankRange> joined;
  for (const RankRange &x : into) {
    if (!joined.empty() && joined.back().grammar == x.grammar &&
        joined.back().first + joined.back().count == x.first)
      joined.back().count += x.count;
    else
      joined.push_back(x);
  }
  into = std::move(joined);
}

} // namespace pilgrim
