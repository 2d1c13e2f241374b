#include "comm_tables.h"

#include "pilgrim/rule_codec.h"
#include "pilgrim/trace_error.h"
#include "rank_ranges.h"

namespace pilgrim {

namespace {

// A communicator and its groups (put_comm is the version-1 RANK section's,
// which has no groups).
void put_comm_groups(ByteWriter &w, const CommInfo &c) {
  put_comm(w, c);
  w.varint(c.group);
  w.varint(c.remote_group);
}

CommInfo get_comm_groups(ByteReader &r) {
  CommInfo c = get_comm(r);
  c.group = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "communicator group"));
  c.remote_group = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "communicator remote group"));
  return c;
}

std::string table_key(const std::vector<CommInfo> &table) {
  std::string key;
  ByteWriter w(key);
  for (const CommInfo &c : table)
    put_comm_groups(w, c);
  return key;
}

} // namespace

uint32_t CommTables::intern(const std::vector<CommInfo> &relative) {
  auto it = index_.emplace(table_key(relative), static_cast<uint32_t>(tables_.size()));
  if (it.second)
    tables_.push_back(relative);
  return it.first->second;
}

void CommTables::add_rank(uint32_t rank, const std::vector<CommInfo> &comms) {
  if (comms.empty())
    return;
  std::vector<CommInfo> relative = comms;
  for (CommInfo &c : relative)
    c.rank = static_cast<int32_t>(static_cast<int64_t>(c.rank) - rank);
  const uint32_t t = intern(relative);
  add_rank_ranges(ranges_, {RankRange{rank, 1, t}}, {0, t});
}

void CommTables::absorb(const CommTables &other) {
  std::vector<uint32_t> map(other.tables_.size());
  for (size_t i = 0; i < other.tables_.size(); ++i)
    map[i] = intern(other.tables_[i]);
  add_rank_ranges(ranges_, other.ranges_, map);
}

void CommTables::serialize(ByteWriter &w) const {
  w.varint(tables_.size());
  for (const auto &table : tables_) {
    w.varint(table.size());
    for (const CommInfo &c : table)
      put_comm_groups(w, c);
  }
  put_rank_ranges(w, ranges_);
}

CommTables CommTables::parse(ByteReader &r) {
  CommTables s;
  const uint64_t ntables = r.count(1, "communicator table count");
  for (uint64_t i = 0; i < ntables; ++i) {
    const uint64_t n = r.count(4, "communicator count");
    std::vector<CommInfo> table;
    for (uint64_t k = 0; k < n; ++k)
      table.push_back(get_comm_groups(r));
    if (s.intern(table) != i)
      r.fail("communicator table " + std::to_string(i) + " appears twice");
  }
  s.ranges_ = get_rank_ranges(r, s.tables_.size(), "communicator range");
  return s;
}

std::vector<RankComms> CommTables::expand() const {
  std::vector<RankComms> out;
  for (const RankRange &x : ranges_)
    for (uint64_t rank = x.first; rank < uint64_t{x.first} + x.count; ++rank) {
      RankComms rc{static_cast<uint32_t>(rank), tables_[x.grammar]};
      for (CommInfo &c : rc.comms)
        c.rank = static_cast<int32_t>(static_cast<int64_t>(c.rank) + static_cast<int64_t>(rank));
      out.push_back(std::move(rc));
    }
  return out;
}

size_t CommTables::memory_bytes() const {
  size_t n = tables_.capacity() * sizeof(tables_[0]) + ranges_.capacity() * sizeof(RankRange);
  for (const auto &table : tables_)
    n += table.capacity() * sizeof(CommInfo) + 2 * table.size() * 8 + 48; // + the index's key
  return n;
}

} // namespace pilgrim
