// The chunk codecs of the per-call modes, one file each (chunk_lossless.cpp,
// chunk_cfg.cpp, chunk_hist.cpp, chunk_pred.cpp, chunk_zfp.cpp), and the
// pieces they share. Byte layouts: docs/FORMAT.md, "Per-call timing: chunks".
// Decoders throw TraceError on malformed bytes; decode_chunk turns that into
// its one-line error.
#pragma once

#include "pilgrim/byte_io.h"
#include "pilgrim/timing_chunk.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::timing::detail {

// Bounds per call, looked up by group (a group past the end of the table has
// the mode's own bound).
struct Bounds {
  const std::vector<double> &of_group;
  double fallback;
  double of(uint32_t group) const { return group < of_group.size() ? of_group[group] : fallback; }
};

// Differences and sums of tick counts wrap (two's complement) instead of
// overflowing: hostile bytes decode to some value, never to undefined
// behaviour, and every real clock difference fits.
inline int64_t wrap_sub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

// The chunk's calls 0..n-1 ordered by group, ascending, each group's calls in
// call order (what std::stable_sort by group gives), by counting: the
// clustered codecs call it once per chunk.
std::vector<uint32_t> calls_by_group(size_t n, const uint32_t *group);

// zstd := varint(raw_size) varint(stored_size) byte[stored_size], one zstd
// frame of raw_size bytes.
void put_zstd(ByteWriter &w, const std::string &raw);
// Reads a zstd block of at most `max_raw` raw bytes.
std::string get_zstd(ByteReader &r, uint64_t max_raw, const char *what);

void encode_lossless(const ChunkView &calls, ByteWriter &w);
void decode_lossless(ByteReader &r, size_t n, int64_t *start, int64_t *end);

void encode_cfg(const Bounds &bounds, const ChunkView &calls, ByteWriter &w);
void decode_cfg(ByteReader &r, const Bounds &bounds, size_t n, const uint32_t *group,
                int64_t *start, int64_t *end);

void encode_hist(int bits, const Bounds &bounds, const ChunkView &calls, ByteWriter &w);
void decode_hist(ByteReader &r, int bits, const Bounds &bounds, size_t n, const uint32_t *group,
                 int64_t *start, int64_t *end);

void encode_pred(bool clustered, const Bounds &bounds, const ChunkView &calls, ByteWriter &w);
void decode_pred(ByteReader &r, bool clustered, const Bounds &bounds, size_t n,
                 const uint32_t *group, int64_t *start, int64_t *end);

// three_d: the field of format version 8 on (kFirstZfp3dVersion).
void encode_zfp(bool clustered, bool three_d, const Bounds &bounds, const ChunkView &calls,
                ByteWriter &w);
void decode_zfp(ByteReader &r, bool clustered, bool three_d, const Bounds &bounds, size_t n,
                const uint32_t *group, int64_t *start, int64_t *end);

} // namespace pilgrim::timing::detail
