// split_rows / join_rows: redundancy elimination (the paper's §3.2, Fig. 6)
// and its inverse.
#include "pilgrim/cdc_tables.h"

#include <stdexcept>
#include <string>

namespace pilgrim::order {

RecordTables split_rows(const std::vector<EventRow> &rows) {
  RecordTables tables;
  uint64_t pending = 0; // unmatched tests since the last message
  bool last_with_next = false;
  for (size_t r = 0; r < rows.size(); ++r) {
    const EventRow &row = rows[r];
    if (!row.matched) {
      if (row.count > UINT64_MAX - pending)
        throw std::invalid_argument("CDC rows: unmatched tests before one message exceed 2^64 - 1");
      pending += row.count;
      continue;
    }
    if (row.count != 1)
      throw std::invalid_argument("CDC rows: row " + std::to_string(r) + " is matched with count " +
                                  std::to_string(row.count) + " (a message is received once)");
    if (row.message.rank < 0)
      throw std::invalid_argument("CDC rows: row " + std::to_string(r) + " has sender rank " +
                                  std::to_string(row.message.rank));
    const uint64_t index = tables.matched.size();
    if (pending != 0)
      tables.unmatched.push_back(UnmatchedTests{index, pending});
    pending = 0;
    if (row.with_next)
      tables.with_next.push_back(index);
    last_with_next = row.with_next;
    tables.matched.push_back(row.message);
  }
  if (last_with_next)
    throw std::invalid_argument(
        "CDC rows: the last message is with_next (chunks are cut between matching calls)");
  if (pending != 0)
    tables.unmatched.push_back(UnmatchedTests{tables.matched.size(), pending});
  return tables;
}

std::vector<EventRow> join_rows(const RecordTables &tables) {
  const uint64_t n = tables.matched.size();
  std::vector<EventRow> rows;
  rows.reserve(tables.matched.size() + tables.unmatched.size());
  size_t w = 0, u = 0;
  for (uint64_t i = 0; i <= n; ++i) {
    if (u < tables.unmatched.size() && tables.unmatched[u].index == i)
      rows.push_back(unmatched_row(tables.unmatched[u++].count));
    if (i == n)
      break;
    const bool with_next = w < tables.with_next.size() && tables.with_next[w] == i;
    if (with_next)
      ++w;
    rows.push_back(matched_row(tables.matched[i].rank, tables.matched[i].clock, with_next));
  }
  if (w != tables.with_next.size() || u != tables.unmatched.size())
    throw std::invalid_argument("CDC tables: with_next or unmatched-test indices not ascending "
                                "or past the messages");
  return rows;
}

} // namespace pilgrim::order
