// Redundancy elimination (the paper's §3.2, Fig. 6): a table key's record
// rows split into the matched-test table (every received message, in
// observed order), the with_next table (which messages came in the same
// call as the next one) and the unmatched-test table (how many failed tests
// came just before a message), and joined back into rows.
#pragma once

#include "pilgrim/cdc_event.h"

#include <cstdint>
#include <vector>

namespace pilgrim::order {

// `count` tests returned flag 0 just before matched message `index` (or,
// with index == the number of matched messages, after the last one).
struct UnmatchedTests {
  uint64_t index = 0;
  uint64_t count = 0;

  friend bool operator==(const UnmatchedTests &a, const UnmatchedTests &b) {
    return a.index == b.index && a.count == b.count;
  }
};

// Fig. 6. with_next holds ascending indices i (i + 1 < matched.size());
// unmatched ascending indices (<= matched.size()) with counts >= 1.
struct RecordTables {
  std::vector<MessageId> matched;
  std::vector<uint64_t> with_next;
  std::vector<UnmatchedTests> unmatched;
};

// Splits rows into the three tables. Consecutive unmatched rows add up;
// unmatched rows of count 0 are dropped. Throws std::invalid_argument for
// rows no matching call produces: a matched row with a count other than 1,
// a negative sender rank, with_next on the last matched row (the caller
// cuts chunks between matching calls), a count sum past 2^64 - 1.
RecordTables split_rows(const std::vector<EventRow> &rows);

// The rows again, in their canonical form: one unmatched row before a
// message where its tests were, one matched row per message.
std::vector<EventRow> join_rows(const RecordTables &tables);

} // namespace pilgrim::order
