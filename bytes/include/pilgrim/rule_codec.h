// The byte forms shared by the RANK section, MERGED_GRAMMAR and the merge
// state that travels between ranks: a list of rules (docs/FORMAT.md §7,
// `varint(nrules) rule{nrules}`), a CST entry's timing, rank ranges and one
// communicator-table entry.
#pragma once

#include <vector>

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_model.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

void put_rules(ByteWriter &w, const std::vector<std::vector<GrammarSymbol>> &rules);
// `what` names the count in messages ("grammar rule count"). Checks counts
// against the remaining bytes only; validate_grammar checks references.
std::vector<std::vector<GrammarSymbol>> get_rules(ByteReader &r, const char *what);

// timing := varint(k) [f64 mean, m2, min, max]
//   k = 0: no samples (n = 0), no doubles; k = 1: n = `count`, the entry's
//   call count; k >= 2: n = k - 2. The usual n == count costs one byte.
void put_timing(ByteWriter &w, const TimingStats &t, uint64_t count);
TimingStats get_timing(ByteReader &r, uint64_t count);

// ranges := varint(n) (varint(first) varint(count) varint(value)){n}, sorted
// and disjoint; get_rank_ranges throws unless every value < nvalues.
// (The merge state's rank map and communicator ranges; files store rank
// sets, rank_sets.h.)
void put_rank_ranges(ByteWriter &w, const std::vector<RankRange> &ranges);
std::vector<RankRange> get_rank_ranges(ByteReader &r, uint64_t nvalues, const char *what);

// comm := varint(comm_id) svarint(rank) svarint(size) svarint(remote_size)
void put_comm(ByteWriter &w, const CommInfo &c);
CommInfo get_comm(ByteReader &r);

} // namespace pilgrim
