// stored_values: the paper's count of stored values per stage (§3.1-3.5:
// 55 -> 23 -> 19 for Fig. 4).
#include "pilgrim/cdc_value_counts.h"

#include "pilgrim/cdc_epoch_line.h"
#include "pilgrim/cdc_permutation.h"
#include "pilgrim/cdc_tables.h"

namespace pilgrim::order {

StoredValues stored_values(const std::vector<EventRow> &rows) {
  const RecordTables tables = split_rows(rows);
  StoredValues v;
  v.rows = 5 * static_cast<uint64_t>(rows.size());
  v.matched = 2 * static_cast<uint64_t>(tables.matched.size());
  v.with_next = tables.with_next.size();
  v.unmatched = 2 * static_cast<uint64_t>(tables.unmatched.size());
  v.permutation = 2 * static_cast<uint64_t>(encode_order(tables.matched).size());
  v.epoch = 2 * static_cast<uint64_t>(epoch_line(tables.matched).entries.size());
  return v;
}

} // namespace pilgrim::order
