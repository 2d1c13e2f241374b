// encode_chunk / decode_chunk: the mode's codec (chunk_*.cpp), and the zstd
// block the codecs share.
#include "pilgrim/timing_chunk.h"

#include "chunk_codecs.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/trace_error.h"

#include <algorithm>
#include <stdexcept>

namespace pilgrim::timing {

namespace detail {

// Timing chunks are compressed while the run goes on: a fast level.
constexpr int kChunkZstdLevel = 3;

std::vector<uint32_t> calls_by_group(size_t n, const uint32_t *group) {
  std::vector<uint32_t> order(n);
  for (size_t i = 0; i < n; ++i)
    order[i] = static_cast<uint32_t>(i);
  uint32_t top = 0;
  for (size_t i = 0; i < n; ++i)
    top = std::max(top, group[i]);
  if (top >= 4 * n + 1024) { // sparse ids (a reader's own numbering): sort
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return group[a] < group[b]; });
    return order;
  }
  std::vector<uint32_t> first(size_t{top} + 2, 0); // calls of groups < g, at g + 1
  for (size_t i = 0; i < n; ++i)
    ++first[size_t{group[i]} + 1];
  for (size_t g = 1; g < first.size(); ++g)
    first[g] += first[g - 1];
  for (size_t i = 0; i < n; ++i)
    order[first[group[i]]++] = static_cast<uint32_t>(i);
  return order;
}

void put_zstd(ByteWriter &w, const std::string &raw) {
  const std::string stored = zstd_compress(raw, kChunkZstdLevel);
  w.varint(raw.size());
  w.string(stored);
}

std::string get_zstd(ByteReader &r, uint64_t max_raw, const char *what) {
  const size_t at = r.offset();
  const uint64_t raw_size = r.varint();
  if (raw_size > max_raw)
    r.fail_at(std::string(what) + " raw size " + std::to_string(raw_size) + " exceeds the " +
                  std::to_string(max_raw) + " bytes its calls can take",
              at);
  const std::string_view stored = r.string();
  try {
    return zstd_decompress(stored, raw_size);
  } catch (const TraceError &e) {
    r.fail_at(std::string(what) + ": " + e.what(), at);
  }
}

} // namespace detail

void encode_chunk(const Spec &spec, const std::vector<double> &bound_of_group,
                  const ChunkView &calls, std::vector<uint8_t> &out) {
  std::string bytes;
  ByteWriter w(bytes);
  const detail::Bounds bounds{bound_of_group, spec.bound};
  switch (spec.method) {
  case Method::Lossless:
    detail::encode_lossless(calls, w);
    break;
  case Method::Cfg:
    detail::encode_cfg(bounds, calls, w);
    break;
  case Method::Hist:
    detail::encode_hist(spec.hist_bits, bounds, calls, w);
    break;
  case Method::Pred:
  case Method::PredClustered:
    detail::encode_pred(spec.method == Method::PredClustered, bounds, calls, w);
    break;
  case Method::Zfp:
  case Method::ZfpClustered:
    detail::encode_zfp(spec.method == Method::ZfpClustered,
                       spec.format_version >= kFirstZfp3dVersion, bounds, calls, w);
    break;
  default:
    throw std::logic_error(std::string("encode_chunk: mode '") + method_name(spec.method) +
                           "' keeps no per-call times");
  }
  out.insert(out.end(), bytes.begin(), bytes.end());
}

bool decode_chunk(const Spec &spec, const std::vector<double> &bound_of_group, const uint8_t *p,
                  size_t size, size_t n, const uint32_t *group, int64_t *start, int64_t *end,
                  std::string &error) {
  ByteReader r(std::string_view(reinterpret_cast<const char *>(p), size));
  const detail::Bounds bounds{bound_of_group, spec.bound};
  try {
    switch (spec.method) {
    case Method::Lossless:
      detail::decode_lossless(r, n, start, end);
      break;
    case Method::Cfg:
      detail::decode_cfg(r, bounds, n, group, start, end);
      break;
    case Method::Hist:
      detail::decode_hist(r, spec.hist_bits, bounds, n, group, start, end);
      break;
    case Method::Pred:
    case Method::PredClustered:
      detail::decode_pred(r, spec.method == Method::PredClustered, bounds, n, group, start, end);
      break;
    case Method::Zfp:
    case Method::ZfpClustered:
      detail::decode_zfp(r, spec.method == Method::ZfpClustered,
                         spec.format_version >= kFirstZfp3dVersion, bounds, n, group, start, end);
      break;
    default:
      error = std::string("timing chunk: mode '") + method_name(spec.method) +
              "' keeps no per-call times";
      return false;
    }
    if (!r.at_end())
      r.fail(std::to_string(r.remaining()) + " trailing bytes");
  } catch (const std::exception &e) { // TraceError, or a grammar's runtime_error
    error = std::string("corrupt ") + method_name(spec.method) + " timing chunk: " + e.what();
    return false;
  }
  return true;
}

} // namespace pilgrim::timing
