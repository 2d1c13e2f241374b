// The sections of a format-version-2 or -3 trace (docs/FORMAT.md §7.2–§7.6): the
// merged CST, the shared rule pool with each distinct grammar's root, the
// rank -> grammar map and the ranks' communicators. Each encoder has a
// parser that checks everything it can without the other sections; the
// cross-section checks are check_merged().
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

// Signatures only: counts follow from the grammars and the rank map
// (derive_counts), timing is in MERGED_TIMING.
std::string encode_merged_cst(const std::vector<CstEntry> &cst);
std::vector<CstEntry> parse_merged_cst(std::string_view bytes); // counts 0

// Sets every entry's count to its number of calls over all ranks: for each
// distinct grammar, its terminal counts times the ranks that have it.
// Call after check_merged. Saturates at UINT64_MAX.
void derive_counts(MergedTrace &m);

std::string encode_merged_grammar(const Grammar &rules, const std::vector<uint64_t> &roots);
void parse_merged_grammar(std::string_view bytes, Grammar &rules, std::vector<uint64_t> &roots);

// The rank map as boxes of ranks per grammar (rank_sets.h); parsed back into
// sorted ranges, adjacent ranges with one grammar joined.
std::string encode_rank_map(const std::vector<RankRange> &map);
std::vector<RankRange> parse_rank_map(std::string_view bytes, uint32_t nranks);

// Communicator tables with ranks relative to the world rank, each distinct
// table once with the boxes of ranks that have it; parsed back per rank.
// `version`: the layout to write (groups from version 5 on).
std::string encode_rank_comms(const std::vector<RankComms> &comms, uint16_t version);
// `version`: the file's format version (groups are stored from version 5 on).
std::vector<RankComms> parse_rank_comms(std::string_view bytes, uint32_t nranks, uint16_t version);

// Throws TraceError unless: every terminal < cst size, rule references and
// roots exist, the rules are acyclic, the rank map is sorted, gap-free and
// covers exactly [0, nranks) with existing grammars, and communicator lists
// name ranks < nranks in increasing order.
void check_merged(const MergedTrace &m, uint32_t nranks);

} // namespace pilgrim
