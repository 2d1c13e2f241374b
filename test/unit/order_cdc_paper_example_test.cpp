// The paper's worked example, end to end: the record of Fig. 4 gives the
// tables of Fig. 6, the permutation rows of Fig. 7, the epoch line of Fig. 8
// and 55 -> 23 -> 19 stored values (§3.1-3.5 of
// shared/papers/cdc-clock-delta-compression.txt); its chunk's bytes are the
// ones docs/design/cdc.md shows.
#include "pilgrim/cdc_chunk.h"
#include "pilgrim/cdc_chunk_bytes.h"
#include "pilgrim/cdc_epoch_line.h"
#include "pilgrim/cdc_linear_prediction.h"
#include "pilgrim/cdc_permutation.h"
#include "pilgrim/cdc_tables.h"
#include "pilgrim/cdc_value_counts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace pilgrim::order {
namespace {

// Fig. 4, "Original Record", row by row (count, flag, with_next, rank,
// clock); "--" (unmatched rows) has no with_next, rank or clock.
std::vector<EventRow> figure_4() {
  return {
      matched_row(0, 2),        // 1  1  0  0  2
      unmatched_row(2),         // 2  0  -- -- --
      matched_row(0, 13, true), // 1  1  1  0  13
      matched_row(2, 8),        // 1  1  0  2  8
      matched_row(1, 8),        // 1  1  0  1  8
      matched_row(0, 15),       // 1  1  0  0  15
      matched_row(1, 19),       // 1  1  0  1  19
      unmatched_row(3),         // 3  0  -- -- --
      matched_row(0, 17),       // 1  1  0  0  17
      unmatched_row(1),         // 1  0  -- -- --
      matched_row(0, 18),       // 1  1  0  0  18
  };
}

std::string hex(const std::string &bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    if (!out.empty())
      out += ' ';
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

TEST(CdcPaperExample, Figure4SplitsIntoTheTablesOfFigure6) {
  const RecordTables t = split_rows(figure_4());
  // Fig. 6, matched-test: index 0..7 with (rank, clock).
  const std::vector<MessageId> matched = {{0, 2},  {0, 13}, {2, 8},  {1, 8},
                                          {0, 15}, {1, 19}, {0, 17}, {0, 18}};
  EXPECT_EQ(t.matched, matched);
  // Fig. 6, with_next: index 1 (Fig. 4's third row, clock 13).
  EXPECT_EQ(t.with_next, (std::vector<uint64_t>{1}));
  // Fig. 6, unmatched-test: (1, 2), (6, 3), (7, 1).
  EXPECT_EQ(t.unmatched, (std::vector<UnmatchedTests>{{1, 2}, {6, 3}, {7, 1}}));
  EXPECT_EQ(join_rows(t), figure_4());
}

TEST(CdcPaperExample, Figure7ReferenceOrderAndMoves) {
  const RecordTables t = split_rows(figure_4());
  // Fig. 7: the observed order as reference indices (left column), and the
  // reference order by clock, then rank (right columns).
  EXPECT_EQ(reference_indices(t.matched), (std::vector<uint32_t>{0, 3, 2, 1, 4, 7, 5, 6}));
  const std::vector<MessageId> reference = {{0, 2},  {1, 8},  {2, 8},  {0, 13},
                                            {0, 15}, {0, 17}, {0, 18}, {1, 19}};
  EXPECT_EQ(reference_order(t.matched), reference);
  // Fig. 7/8, permutation difference: (1, +2), (2, +1), (7, -2); 3 of 8
  // messages permuted, 37.5% (§6.1).
  const std::vector<Move> moves = {{1, +2}, {2, +1}, {7, -2}};
  EXPECT_EQ(encode_order(t.matched), moves);
}

TEST(CdcPaperExample, DecoderRuleStepByStep) {
  // docs/design/cdc.md, "The decoder rule":
  // [0..7] -(1:+2)-> [0,2,3,1,...] -(2:+1)-> [0,3,2,1,...] -(7:-2)-> B.
  const std::vector<Move> moves = {{1, +2}, {2, +1}, {7, -2}};
  EXPECT_EQ(apply_moves(8, {moves[0]}), (std::vector<uint32_t>{0, 2, 3, 1, 4, 5, 6, 7}));
  EXPECT_EQ(apply_moves(8, {moves[0], moves[1]}), (std::vector<uint32_t>{0, 3, 2, 1, 4, 5, 6, 7}));
  EXPECT_EQ(apply_moves(8, moves), (std::vector<uint32_t>{0, 3, 2, 1, 4, 7, 5, 6}));
  // Replay rebuilds the reference order from the clocks it receives, in
  // whatever order they arrive, and gets the observed order back.
  std::vector<MessageId> received = split_rows(figure_4()).matched;
  std::reverse(received.begin(), received.end());
  EXPECT_EQ(decode_order(received, moves), split_rows(figure_4()).matched);
}

TEST(CdcPaperExample, Figure8EpochLine) {
  const EpochLine line = epoch_line(split_rows(figure_4()).matched);
  EXPECT_EQ(line.entries, (std::vector<EpochEntry>{{0, 18}, {1, 19}, {2, 8}}));
  // §3.5: (rank 2, clock 17) runs off the epoch line: a later chunk's.
  EXPECT_FALSE(in_chunk(line, MessageId{2, 17}));
  EXPECT_TRUE(in_chunk(line, MessageId{0, 18}));
  EXPECT_TRUE(in_chunk(line, MessageId{2, 8}));
  EXPECT_FALSE(in_chunk(line, MessageId{3, 1})); // a sender the chunk never heard from
}

TEST(CdcPaperExample, IndexColumnsFollowEquation3) {
  // Eq. 3 from the first value on. Fig. 8 prints the unmatched-test indices
  // as 1, 6, -4 and the permutation indices as 1, 2, 4: its second values
  // are left unpredicted (docs/design/cdc.md, "Eq. 3 against Fig. 8").
  EXPECT_EQ(lp_encode({1, 6, 7}), (std::vector<int64_t>{1, 4, -4}));
  EXPECT_EQ(lp_encode({1, 2, 7}), (std::vector<int64_t>{1, 0, 4}));
  EXPECT_EQ(lp_encode({1}), (std::vector<int64_t>{1}));
}

TEST(CdcPaperExample, StoredValues55To23To19) {
  const StoredValues v = stored_values(figure_4());
  EXPECT_EQ(v.raw(), 55u); // §3.1: five values x 11 events
  EXPECT_EQ(v.matched, 16u);
  EXPECT_EQ(v.with_next, 1u);
  EXPECT_EQ(v.unmatched, 6u);
  EXPECT_EQ(v.after_redundancy_elimination(), 23u); // §3.2
  EXPECT_EQ(v.permutation, 6u);
  EXPECT_EQ(v.epoch, 6u);
  // §3.5: perm 6 + with_next 1 + unmatched 6 + epoch 6.
  EXPECT_EQ(v.after_permutation_encoding(), 19u);
}

TEST(CdcPaperExample, ChunkBytes) {
  const Chunk chunk = chunk_of_rows(figure_4());
  // docs/design/cdc.md, "The Fig. 4 chunk": the counts, then each column.
  EXPECT_EQ(hex(chunk_table_bytes(chunk)), "08 01 03 03 03" // N, W, U, P, E
                                           " 02"            // with_next: 1
                                           " 02 08 07"      // unmatched indices: 1, 4, -4
                                           " 02 03 01"      // counts: 2, 3, 1
                                           " 02 00 08"      // permutation indices: 1, 0, 4
                                           " 04 02 03"      // delays: +2, +1, -2
                                           " 00 00 00"      // epoch ranks 0, 1, 2 as gaps
                                           " 12 13 08");    // clocks 18, 19, 8
  // 24 bytes are too few for zstd to win: stored, codec 0, with the CRC.
  const std::string bytes = write_chunk(chunk);
  EXPECT_EQ(hex(bytes), "00 18 08 01 03 03 03 02 02 08 07 02 03 01 02 00 08 04 02 03 00 00 00 12 "
                        "13 08 31 76 6d 76"); // CRC-32C of the 26 bytes before, little-endian
  const Chunk back = read_chunk(bytes);
  std::vector<MessageId> received = split_rows(figure_4()).matched;
  std::sort(received.begin(), received.end(), reference_before);
  EXPECT_EQ(rows_of_chunk(back, received), figure_4());
}

} // namespace
} // namespace pilgrim::order
