// One chunk of one rank's per-call times, encoded by the mode's codec
// (docs/FORMAT.md, "Per-call timing"). A rank's calls are cut, in call order,
// into chunks of at most kChunkCalls calls; every chunk decodes on its own
// (its first start is stored exactly), so no error carries from one chunk to
// the next, and inside a chunk the lossy codecs quantise each value against
// the decoder's own reconstruction of the previous time (closed loop): every
// reconstructed absolute time is within the bound of its own gap.
#pragma once

#include "pilgrim/timing_spec.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim::timing {

inline constexpr uint32_t kChunkCalls = 1u << 16;

// The calls of one chunk. Times are clock ticks of the rank's clock
// (runtime/clock/clock.h); `group` is the call's signature, any id with the same
// partition of the calls at encoding and at decoding (the runtime's terminal,
// a reader's merged CST entry): the clustered and per-signature codecs group
// by it, and `bound_of_group[group]` is the bound of the call's function
// (Spec::bound_of), in the mode's unit: relative for EPS, ticks for TOL.
struct ChunkView {
  size_t n = 0;
  const int64_t *start = nullptr;
  const int64_t *end = nullptr;
  const uint32_t *group = nullptr;
};

// Appends the chunk's encoded bytes to `out`.
void encode_chunk(const Spec &spec, const std::vector<double> &bound_of_group,
                  const ChunkView &calls, std::vector<uint8_t> &out);

// Decodes a chunk of `n` calls into start[0..n) and end[0..n) (ticks; a lossy
// mode's reconstruction, rounded to whole ticks). `group` as at encoding.
// Returns false and sets a one-line `error` on corrupt or truncated bytes;
// never reads outside [p, p + size).
bool decode_chunk(const Spec &spec, const std::vector<double> &bound_of_group, const uint8_t *p,
                  size_t size, size_t n, const uint32_t *group, int64_t *start, int64_t *end,
                  std::string &error);

} // namespace pilgrim::timing
