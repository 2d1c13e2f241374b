// lossless: exact ticks. The chunk's first start, then the gaps (start minus
// the previous call's end) and the durations as zigzag varints, gaps first,
// in one zstd block (docs/FORMAT.md, "Per-call timing: chunks").
#include "chunk_codecs.h"

#include "pilgrim/varint.h"

namespace pilgrim::timing::detail {

void encode_lossless(const ChunkView &calls, ByteWriter &w) {
  std::string raw;
  raw.reserve(calls.n * 6 + kMaxVarintBytes);
  ByteWriter b(raw);
  b.svarint(calls.n ? calls.start[0] : 0);
  for (size_t i = 1; i < calls.n; ++i)
    b.svarint(wrap_sub(calls.start[i], calls.end[i - 1]));
  for (size_t i = 0; i < calls.n; ++i)
    b.svarint(wrap_sub(calls.end[i], calls.start[i]));
  put_zstd(w, raw);
}

void decode_lossless(ByteReader &r, size_t n, int64_t *start, int64_t *end) {
  const std::string raw = get_zstd(r, (2 * n + 1) * kMaxVarintBytes, "lossless block");
  ByteReader b(raw);
  if (n == 0) {
    (void)b.svarint();
  } else {
    start[0] = b.svarint();
    for (size_t i = 1; i < n; ++i)
      start[i] = b.svarint(); // the gap, until the durations are known
    int64_t prev_end = 0;
    for (size_t i = 0; i < n; ++i) {
      const int64_t s = i == 0 ? start[0] : wrap_add(prev_end, start[i]);
      start[i] = s;
      end[i] = wrap_add(s, b.svarint());
      prev_end = end[i];
    }
  }
  if (!b.at_end())
    b.fail("lossless block has trailing bytes");
}

} // namespace pilgrim::timing::detail
