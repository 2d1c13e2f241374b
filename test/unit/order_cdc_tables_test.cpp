// Redundancy elimination (order/include/pilgrim/cdc_tables.h) and the epoch
// line (cdc_epoch_line.h) on the cases the paper's example does not show:
// tests after the last message, runs of unmatched rows, rows no matching
// call makes.
#include "pilgrim/cdc_chunk.h"
#include "pilgrim/cdc_epoch_line.h"
#include "pilgrim/cdc_tables.h"
#include "pilgrim/cdc_value_counts.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace pilgrim::order {
namespace {

TEST(CdcTables, UnmatchedRunsAddUpAndTrailingTestsGetIndexN) {
  const RecordTables t = split_rows(
      {unmatched_row(2), unmatched_row(0), unmatched_row(5), matched_row(3, 7), unmatched_row(4)});
  EXPECT_EQ(t.unmatched, (std::vector<UnmatchedTests>{{0, 7}, {1, 4}}));
  EXPECT_EQ(join_rows(t),
            (std::vector<EventRow>{unmatched_row(7), matched_row(3, 7), unmatched_row(4)}));
}

TEST(CdcTables, OnlyTestsAndNothing) {
  const RecordTables polls = split_rows({unmatched_row(9)});
  EXPECT_TRUE(polls.matched.empty());
  EXPECT_EQ(polls.unmatched, (std::vector<UnmatchedTests>{{0, 9}}));
  EXPECT_TRUE(split_rows({}).matched.empty());
  EXPECT_TRUE(join_rows(RecordTables{}).empty());
  EXPECT_EQ(stored_values({}).after_permutation_encoding(), 0u);
  const Chunk c = chunk_of_rows({unmatched_row(9)});
  EXPECT_EQ(c.messages, 0u);
  EXPECT_TRUE(c.epoch.entries.empty());
  EXPECT_EQ(rows_of_chunk(c, {}), (std::vector<EventRow>{unmatched_row(9)}));
}

TEST(CdcTables, UnmatchedRowsIgnoreTheirMessageFields) {
  EventRow odd = unmatched_row(1);
  odd.with_next = true;
  odd.message = MessageId{5, 99};
  EXPECT_EQ(join_rows(split_rows({odd, matched_row(0, 1)})),
            (std::vector<EventRow>{unmatched_row(1), matched_row(0, 1)}));
}

TEST(CdcTables, RowsNoMatchingCallMakes) {
  EventRow twice = matched_row(0, 1);
  twice.count = 2;
  EXPECT_THROW(split_rows({twice}), std::invalid_argument);
  EXPECT_THROW(split_rows({matched_row(-1, 1)}), std::invalid_argument);
  EXPECT_THROW(split_rows({matched_row(0, 1), matched_row(0, 2, true)}), std::invalid_argument);
  EXPECT_THROW(split_rows({unmatched_row(UINT64_MAX), unmatched_row(1), matched_row(0, 1)}),
               std::invalid_argument);
  // with_next on the last message is refused even with tests after it.
  EXPECT_THROW(split_rows({matched_row(0, 1, true), unmatched_row(1)}), std::invalid_argument);
}

TEST(CdcTables, JoinRefusesIndicesPastTheMessages) {
  RecordTables t;
  t.matched = {{0, 1}};
  t.unmatched = {{2, 1}};
  EXPECT_THROW(join_rows(t), std::invalid_argument);
  t.unmatched.clear();
  t.with_next = {1};
  EXPECT_THROW(join_rows(t), std::invalid_argument);
}

TEST(CdcTables, RowsOfChunkWantTheChunksMessages) {
  const Chunk c = chunk_of_rows({matched_row(0, 1), matched_row(1, 1)});
  EXPECT_THROW(rows_of_chunk(c, {{0, 1}}), TraceError);
}

TEST(CdcEpochLine, LargestClockPerSender) {
  const EpochLine line = epoch_line({{4, 10}, {1, 3}, {4, 2}, {1, 30}, {0, 0}});
  EXPECT_EQ(line.entries, (std::vector<EpochEntry>{{0, 0}, {1, 30}, {4, 10}}));
  EXPECT_TRUE(in_chunk(line, {0, 0}));
  EXPECT_FALSE(in_chunk(line, {0, 1}));
  EXPECT_TRUE(in_chunk(line, {1, 29}));
  EXPECT_FALSE(in_chunk(line, {2, 0}));
  EXPECT_FALSE(in_chunk(line, {5, 0}));
  EXPECT_FALSE(in_chunk(EpochLine{}, {0, 0}));
}

} // namespace
} // namespace pilgrim::order
