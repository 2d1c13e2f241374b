// write_chunk / read_chunk: a CDC chunk's byte layout (docs/design/cdc.md,
// "A chunk's bytes"), and the checks that make the reader safe on hostile
// bytes.
#include "pilgrim/cdc_chunk_bytes.h"

#include "pilgrim/byte_io.h"
#include "pilgrim/cdc_linear_prediction.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/trace_error.h"

#include <stdexcept>
#include <string>

namespace pilgrim::order {

namespace {

constexpr uint8_t kStored = 0;
constexpr uint8_t kZstd = 1;
constexpr size_t kCrcBytes = 4;

// The rules of a chunk, which the writer and the reader share: "" if
// `chunk` keeps them, else what breaks the first one. The moves' fit into
// the sequence is checked where they decode (apply_moves): it needs the N
// messages, which replay holds and a reader of bytes should not allocate.
std::string broken_rule(const Chunk &c) {
  const uint64_t n = c.messages;
  const std::string of_n = " of a chunk of " + std::to_string(n) + " messages";
  if (n > kMaxChunkMessages)
    return std::to_string(n) + " messages exceed " + std::to_string(kMaxChunkMessages);
  for (size_t k = 0; k < c.with_next.size(); ++k) {
    const uint64_t i = c.with_next[k];
    if (n == 0 || i >= n - 1 || (k > 0 && i <= c.with_next[k - 1]))
      return "with_next index " + std::to_string(i) + of_n + " (ascending, below N - 1)";
  }
  for (size_t k = 0; k < c.unmatched.size(); ++k) {
    const UnmatchedTests &u = c.unmatched[k];
    if (u.index > n || (k > 0 && u.index <= c.unmatched[k - 1].index))
      return "unmatched-test index " + std::to_string(u.index) + of_n + " (ascending, at most N)";
    if (u.count == 0)
      return "unmatched-test count 0 at index " + std::to_string(u.index);
  }
  for (size_t k = 0; k < c.moves.size(); ++k) {
    const Move &m = c.moves[k];
    if (m.index >= n || (k > 0 && m.index <= c.moves[k - 1].index))
      return "permutation index " + std::to_string(m.index) + of_n + " (ascending, below N)";
    if (m.delay == 0 || m.delay < 1 - static_cast<int64_t>(n) ||
        m.delay > static_cast<int64_t>(n) - 1)
      return "permutation delay " + std::to_string(m.delay) + " at index " +
             std::to_string(m.index) + of_n;
  }
  const auto &e = c.epoch.entries;
  if ((n == 0) != e.empty() || e.size() > n)
    return "an epoch line of " + std::to_string(e.size()) + " senders" + of_n;
  for (size_t k = 0; k < e.size(); ++k)
    if (e[k].rank < 0 || (k > 0 && e[k].rank <= e[k - 1].rank))
      return "epoch line rank " + std::to_string(e[k].rank) + " (ascending, >= 0)";
  return "";
}

void write_indices(ByteWriter &w, const std::vector<int64_t> &indices) {
  for (int64_t e : lp_encode(indices))
    w.svarint(e);
}

// A column of `count` LP residuals, decoded into indices (>= 0).
std::vector<uint64_t> read_indices(ByteReader &r, uint64_t count, const char *table) {
  std::vector<int64_t> residuals(static_cast<size_t>(count));
  for (auto &e : residuals)
    e = r.svarint();
  std::vector<uint64_t> indices;
  indices.reserve(residuals.size());
  for (int64_t v : lp_decode(residuals)) {
    if (v < 0)
      r.fail(std::string(table) + " index " + std::to_string(v) + " is negative");
    indices.push_back(static_cast<uint64_t>(v));
  }
  return indices;
}

Chunk parse_tables(std::string_view raw) try {
  ByteReader r(raw);
  Chunk c;
  c.messages = r.varint_max(kMaxChunkMessages, "messages");
  const uint64_t w = r.count(1, "with_next rows");
  const uint64_t u = r.count(2, "unmatched-test rows");
  const uint64_t p = r.count(2, "permutation rows");
  const uint64_t e = r.count(2, "epoch line rows");
  if (w + 2 * u + 2 * p + 2 * e > r.remaining()) // each term <= remaining: no overflow
    r.fail("the tables' " + std::to_string(w + 2 * u + 2 * p + 2 * e) +
           " bytes at least exceed the remaining " + std::to_string(r.remaining()));

  c.with_next = read_indices(r, w, "with_next");
  for (uint64_t i : read_indices(r, u, "unmatched-test"))
    c.unmatched.push_back(UnmatchedTests{i, 0});
  for (auto &t : c.unmatched)
    t.count = r.varint();
  for (uint64_t i : read_indices(r, p, "permutation"))
    c.moves.push_back(Move{i, 0});
  for (auto &m : c.moves)
    m.delay = r.svarint();
  c.epoch.entries.resize(static_cast<size_t>(e));
  int64_t rank = -1;
  for (auto &entry : c.epoch.entries) {
    rank += 1 + static_cast<int64_t>(r.varint_max(INT32_MAX, "epoch line rank gap"));
    if (rank > INT32_MAX)
      r.fail("epoch line rank " + std::to_string(rank) + " out of range");
    entry.rank = static_cast<int32_t>(rank);
  }
  for (auto &entry : c.epoch.entries)
    entry.clock = r.varint();
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " bytes after the tables");
  const std::string broken = broken_rule(c);
  if (!broken.empty())
    throw TraceError(broken);
  return c;
} catch (const TraceError &e) {
  rethrow_with_context("tables", e);
}

} // namespace

std::string chunk_table_bytes(const Chunk &chunk) {
  const std::string broken = broken_rule(chunk);
  if (!broken.empty())
    throw std::invalid_argument("CDC chunk: " + broken);
  std::string raw;
  ByteWriter w(raw);
  w.varint(chunk.messages);
  w.varint(chunk.with_next.size());
  w.varint(chunk.unmatched.size());
  w.varint(chunk.moves.size());
  w.varint(chunk.epoch.entries.size());
  std::vector<int64_t> indices;
  for (uint64_t i : chunk.with_next)
    indices.push_back(static_cast<int64_t>(i));
  write_indices(w, indices);
  indices.clear();
  for (const auto &t : chunk.unmatched)
    indices.push_back(static_cast<int64_t>(t.index));
  write_indices(w, indices);
  for (const auto &t : chunk.unmatched)
    w.varint(t.count);
  indices.clear();
  for (const auto &m : chunk.moves)
    indices.push_back(static_cast<int64_t>(m.index));
  write_indices(w, indices);
  for (const auto &m : chunk.moves)
    w.svarint(m.delay);
  int64_t previous = -1;
  for (const auto &entry : chunk.epoch.entries) {
    w.varint(static_cast<uint64_t>(entry.rank - previous - 1));
    previous = entry.rank;
  }
  for (const auto &entry : chunk.epoch.entries)
    w.varint(entry.clock);
  return raw;
}

std::string write_chunk(const Chunk &chunk, int zstd_level) {
  const std::string raw = chunk_table_bytes(chunk);
  std::string packed = zstd_compress(raw, zstd_level);
  const bool zstd = packed.size() < raw.size();
  std::string out;
  ByteWriter w(out);
  w.u8(zstd ? kZstd : kStored);
  w.varint(raw.size());
  w.bytes(zstd ? packed : raw);
  w.u32le(crc32c(out.data(), out.size()));
  return out;
}

Chunk read_chunk(std::string_view bytes) {
  try {
    if (bytes.size() < 1 + 1 + kCrcBytes)
      throw TraceError("truncated: " + std::to_string(bytes.size()) + " bytes");
    const std::string_view covered = bytes.substr(0, bytes.size() - kCrcBytes);
    ByteReader tail(bytes.substr(covered.size()));
    const uint32_t stored_crc = tail.u32le();
    const uint32_t crc = crc32c(covered.data(), covered.size());
    if (crc != stored_crc)
      throw TraceError("checksum mismatch (truncated or corrupt bytes)");
    ByteReader r(covered);
    const uint8_t codec = r.u8();
    const uint64_t raw_size = r.varint();
    const std::string_view body = covered.substr(r.offset());
    if (codec == kStored) {
      if (raw_size != body.size())
        throw TraceError("stored tables of " + std::to_string(body.size()) + " bytes, declared " +
                         std::to_string(raw_size));
      return parse_tables(body);
    }
    if (codec != kZstd)
      throw TraceError("unknown codec " + std::to_string(codec));
    // docs/FORMAT.md §3.3's bound: a small hostile chunk cannot declare much.
    if (raw_size > body.size() * uint64_t{1024} + 65536)
      throw TraceError("raw size " + std::to_string(raw_size) + " exceeds the bound of " +
                       std::to_string(body.size()) + " compressed bytes");
    return parse_tables(zstd_decompress(body, raw_size));
  } catch (const TraceError &e) {
    rethrow_with_context("CDC chunk", e);
  }
}

} // namespace pilgrim::order
