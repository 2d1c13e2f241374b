// Placeholder until the lossy codecs land: they refuse to encode or decode.
#include "chunk_codecs.h"

#include <stdexcept>

namespace pilgrim::timing::detail {

namespace {
[[noreturn]] void pending() { throw std::logic_error("this timing mode is not implemented yet"); }
} // namespace

void encode_cfg(const Bounds &, const ChunkView &, ByteWriter &) { pending(); }
void decode_cfg(ByteReader &r, const Bounds &, size_t, const uint32_t *, int64_t *, int64_t *) {
  r.fail("cfg is not implemented yet");
}
void encode_hist(int, const Bounds &, const ChunkView &, ByteWriter &) { pending(); }
void decode_hist(ByteReader &r, int, const Bounds &, size_t, const uint32_t *, int64_t *,
                 int64_t *) {
  r.fail("hist is not implemented yet");
}
void encode_pred(bool, const Bounds &, const ChunkView &, ByteWriter &) { pending(); }
void decode_pred(ByteReader &r, bool, const Bounds &, size_t, const uint32_t *, int64_t *,
                 int64_t *) {
  r.fail("pred is not implemented yet");
}
void encode_zfp(bool, const Bounds &, const ChunkView &, ByteWriter &) { pending(); }
void decode_zfp(ByteReader &r, bool, const Bounds &, size_t, const uint32_t *, int64_t *,
                int64_t *) {
  r.fail("zfp is not implemented yet");
}

} // namespace pilgrim::timing::detail
