// How many values each stage of Clock Delta Compression stores, counted as
// the paper counts them for its Fig. 4 example (55 -> 23 -> 19): a value is
// one table cell; the implicit row numbers and the table lengths are not
// counted.
#pragma once

#include "pilgrim/cdc_event.h"

#include <cstdint>
#include <vector>

namespace pilgrim::order {

struct StoredValues {
  uint64_t rows = 0;        // raw record: 5 values a row (Fig. 4)
  uint64_t matched = 0;     // matched-test table: rank, clock a message (Fig. 6)
  uint64_t with_next = 0;   // with_next table: index
  uint64_t unmatched = 0;   // unmatched-test table: index, count
  uint64_t permutation = 0; // permutation table: index, delay (Fig. 7)
  uint64_t epoch = 0;       // epoch line: rank, clock (Fig. 8)

  // The raw record, after redundancy elimination, and after permutation
  // encoding with the epoch line (which replaces the matched-test table).
  uint64_t raw() const { return rows; }
  uint64_t after_redundancy_elimination() const { return matched + with_next + unmatched; }
  uint64_t after_permutation_encoding() const {
    return permutation + with_next + unmatched + epoch;
  }
};

// The counts of `rows` (split_rows' rules).
StoredValues stored_values(const std::vector<EventRow> &rows);

} // namespace pilgrim::order
