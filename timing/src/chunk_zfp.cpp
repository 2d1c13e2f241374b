// zfp:TOL and zfp-clustered:TOL: libzfp's fixed-accuracy mode over the
// chunk's absolute times (each start and end minus the chunk's first start,
// as doubles: start, end, start, end, ... in call order; clustered: grouped
// by group, groups in ascending id, each group's calls in call order). zfp's
// tolerance is not a hard guarantee, so the encoder decodes its own stream,
// rounds every value to whole ticks and patches exactly the values that
// miss their call's TOL (in ticks): the bound is hard. Absolute times do not
// drift, whatever zfp does.
//   chunk := svarint(first_start) f64(tolerance) varint(nzfp) byte[nzfp]
//            zstd(varint(npatch) (varint(index_delta) svarint(correction)){npatch})
// tolerance: the smallest TOL of the chunk's groups, zfp's accuracy
// parameter; index_delta: the patched value's position minus the previous
// patch's (the first: its position); correction: exact ticks minus the
// rounded zfp value.
// The field: from format version 8 (kFirstZfp3dVersion) the 2n values, in
// that order, fill a 3-D field of 4 x 4 x ceil(2n / 16) doubles (x fastest),
// padded with copies of the last value, so that one zfp block holds 64
// consecutive values (32 calls) instead of 4: on README's fixed
// Comm_rank stream the encoder's instructions per call halve and the bytes
// shrink 4.3x, on the synthetic stencil by 16% (zfp decorrelates along all
// three axes and codes a block's bit planes once per 64 values). Versions 6
// and 7: one 1-D field of 2n doubles.
#include "chunk_codecs.h"

#include <zfp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

namespace pilgrim::timing::detail {

namespace {

struct StreamDeleter {
  void operator()(zfp_stream *z) const { zfp_stream_close(z); }
};
struct FieldDeleter {
  void operator()(zfp_field *f) const { zfp_field_free(f); }
};
struct BitDeleter {
  void operator()(bitstream *s) const { stream_close(s); }
};

// Value positions: order[k] = 2 * call + (0 start, 1 end); unclustered, the
// identity, left empty (position_of).
std::vector<uint32_t> value_order(bool clustered, size_t n, const uint32_t *group) {
  if (!clustered)
    return {};
  const std::vector<uint32_t> calls = calls_by_group(n, group);
  std::vector<uint32_t> order(2 * n);
  for (size_t k = 0; k < n; ++k) {
    order[2 * k] = 2 * calls[k];
    order[2 * k + 1] = 2 * calls[k] + 1;
  }
  return order;
}

uint32_t position_of(const std::vector<uint32_t> &order, size_t k) {
  return order.empty() ? static_cast<uint32_t>(k) : order[k];
}

// The number of doubles of the field of `nvalues` values: 3-D fields are
// padded to whole 4 x 4 slabs.
size_t field_size(bool three_d, size_t nvalues) {
  return three_d ? (nvalues + 15) / 16 * 16 : nvalues;
}

// Runs zfp on `values` (field_size() doubles) in place: compresses (into
// `out`) or decompresses (from `in`, which must be padded to the stream's
// maximum size).
struct Zfp {
  Zfp(bool three_d, double *values, size_t size, double tolerance)
      : field(three_d ? zfp_field_3d(values, zfp_type_double, 4, 4, size / 16)
                      : zfp_field_1d(values, zfp_type_double, size)),
        stream(zfp_stream_open(nullptr)) {
    zfp_stream_set_accuracy(stream.get(), tolerance);
  }
  size_t max_size() { return zfp_stream_maximum_size(stream.get(), field.get()); }
  // Into out[0, capacity); zfp writes whole words and needs no zeroed buffer.
  size_t compress(uint8_t *out, size_t capacity) {
    std::unique_ptr<bitstream, BitDeleter> bits(stream_open(out, capacity));
    zfp_stream_set_bit_stream(stream.get(), bits.get());
    zfp_stream_rewind(stream.get());
    return zfp_compress(stream.get(), field.get());
  }
  bool decompress(uint8_t *in, size_t size) {
    std::unique_ptr<bitstream, BitDeleter> bits(stream_open(in, size));
    zfp_stream_set_bit_stream(stream.get(), bits.get());
    zfp_stream_rewind(stream.get());
    return zfp_decompress(stream.get(), field.get()) != 0;
  }
  std::unique_ptr<zfp_field, FieldDeleter> field;
  std::unique_ptr<zfp_stream, StreamDeleter> stream;
};

// Bytes of zeros after a stream, for zfp's reads of whole words past its
// end (the decoder pads the same way, decode_zfp).
constexpr size_t kZfpPad = 64;

// A decoded double as whole ticks, rounded half away from zero (llround's
// rounding, without its libm call: the encoder rounds every value of a
// chunk); 0 for what no clock gives: NaN, huge.
int64_t to_ticks(double v) {
  if (!(std::fabs(v) < 9.0e18))
    return 0;
  int64_t t = static_cast<int64_t>(v);            // toward zero, exact here
  const double frac = v - static_cast<double>(t); // exact: |frac| < 1
  if (frac >= 0.5)
    ++t;
  else if (frac <= -0.5)
    --t;
  return t;
}

} // namespace

void encode_zfp(bool clustered, bool three_d, const Bounds &bounds, const ChunkView &calls,
                ByteWriter &w) {
  const size_t n = calls.n;
  const int64_t first = n ? calls.start[0] : 0;
  double tol = HUGE_VAL;
  bool nan_bound = false;
  for (size_t i = 0; i < n; ++i) {
    const double b = bounds.of(calls.group[i]);
    tol = std::min(tol, b);
    nan_bound |= std::isnan(b);
  }
  // A miss within `within_all` is within every call's bound.
  const double within_all = nan_bound ? -1 : tol;
  if (!(tol > 0) || !std::isfinite(tol))
    tol = n ? 1 : bounds.fallback > 0 ? bounds.fallback : 1;
  const std::vector<uint32_t> order = value_order(clustered, n, calls.group);
  // Buffers left uninitialised (new T[]): every element is written before
  // it is read; zeroing them cost about 5% of the encoder.
  const size_t nvalues = 2 * n, nfield = field_size(three_d, nvalues);
  std::unique_ptr<int64_t[]> exact(new int64_t[nvalues]);
  std::unique_ptr<double[]> values(new double[nfield]);
  if (order.empty()) {
    for (size_t i = 0; i < n; ++i) {
      exact[2 * i] = wrap_sub(calls.start[i], first);
      exact[2 * i + 1] = wrap_sub(calls.end[i], first);
    }
  } else {
    for (size_t k = 0; k < nvalues; ++k) {
      const uint32_t at = order[k];
      exact[k] = wrap_sub(at & 1 ? calls.end[at / 2] : calls.start[at / 2], first);
    }
  }
  for (size_t k = 0; k < nvalues; ++k)
    values[k] = static_cast<double>(exact[k]);
  for (size_t k = nvalues; k < nfield; ++k)
    values[k] = values[nvalues - 1];
  std::unique_ptr<uint8_t[]> stored;
  size_t nstored = 0;
  if (n) {
    Zfp z(three_d, values.get(), nfield, tol);
    const size_t max = z.max_size();
    stored.reset(new uint8_t[max + kZfpPad]);
    nstored = z.compress(stored.get(), max);
    // What the decoder will see: the stored bytes, then zeros.
    std::memset(stored.get() + nstored, 0, kZfpPad);
    Zfp back(three_d, values.get(), nfield, tol);
    back.decompress(stored.get(), nstored + kZfpPad);
  }
  std::string raw;
  ByteWriter p(raw);
  std::string patches;
  ByteWriter pw(patches);
  uint64_t npatch = 0, prev = 0;
  for (size_t k = 0; k < nvalues; ++k) {
    const int64_t got = to_ticks(values[k]);
    const double miss = std::fabs(static_cast<double>(wrap_sub(got, exact[k])));
    if (miss <= within_all || miss <= bounds.of(calls.group[position_of(order, k) / 2]))
      continue;
    pw.varint(k - prev);
    pw.svarint(wrap_sub(exact[k], got));
    prev = k;
    ++npatch;
  }
  p.varint(npatch);
  p.bytes(patches);
  w.svarint(first);
  w.f64le(tol);
  w.string(std::string_view(reinterpret_cast<const char *>(stored.get()), nstored));
  put_zstd(w, raw);
}

void decode_zfp(ByteReader &r, bool clustered, bool three_d, const Bounds &bounds, size_t n,
                const uint32_t *group, int64_t *start, int64_t *end) {
  (void)bounds;
  const int64_t first = r.svarint();
  const double tol = r.f64le();
  if (!(tol > 0) || !std::isfinite(tol) || tol < 1e-6)
    r.fail("zfp tolerance out of range");
  const std::string_view stored = r.string();
  std::vector<double> values(field_size(three_d, 2 * n), 0.0);
  if (n) {
    Zfp z(three_d, values.data(), values.size(), tol);
    const size_t max = z.max_size();
    if (stored.size() > max)
      r.fail("zfp stream longer than its values can take");
    std::vector<uint8_t> in(stored.begin(), stored.end());
    in.resize(max + kZfpPad, 0); // zfp reads whole words: padding past its maximum
    if (!z.decompress(in.data(), in.size()))
      r.fail("zfp stream does not decompress");
  }
  const std::string raw = get_zstd(r, 16 + 2 * n * 2 * kMaxVarintBytes, "zfp patch block");
  ByteReader p(raw);
  std::vector<int64_t> got(2 * n);
  for (size_t k = 0; k < 2 * n; ++k)
    got[k] = to_ticks(values[k]);
  const uint64_t npatch = p.varint_max(2 * n, "zfp patch count");
  uint64_t at = 0;
  for (uint64_t j = 0; j < npatch; ++j) {
    const uint64_t delta = p.varint();
    if ((j > 0 && delta == 0) || delta >= 2 * n - at)
      p.fail("zfp patch position out of range");
    at += delta;
    got[at] = wrap_add(got[at], p.svarint());
  }
  if (!p.at_end())
    p.fail("zfp patch block has trailing bytes");
  const std::vector<uint32_t> order = value_order(clustered, n, group);
  for (size_t k = 0; k < 2 * n; ++k) {
    const uint32_t v = position_of(order, k);
    (v & 1 ? end : start)[v / 2] = wrap_add(got[k], first);
  }
}

} // namespace pilgrim::timing::detail
