// pred:EPS and pred-clustered:EPS, the SZ method under its own name: a 1-D
// predictor (the previous reconstructed value of the same stream),
// error-bounded quantisation of the prediction error in the log domain
// (closed_loop.h's centred bins of ratio (1 + eps)^2: a bin step is an
// error of at most eps either way), then zstd.
//
// Streams: unclustered, two (all gaps, all durations); clustered, two per
// group, and the codes are written grouped: groups in ascending id, each
// group's gaps in call order, then its durations (the decoder rebuilds the
// order from the group array). The code of a value is its symbol minus the
// stream's previous symbol (0 before the first).
//   chunk := svarint(first_start) zstd(varint(nvalues) code{nvalues}
//            varint(nwide) wide{nwide})
//   code: one byte, c + 127 for -127 <= c <= 127; 255 = the next wide entry
//   wide: varint(zigzag(c) + 1) for a larger code, or varint(0) svarint(v)
//         for a value coded exactly (the stream's previous symbol is kept)
#include "closed_loop.h"

#include <algorithm>
#include <unordered_map>

namespace pilgrim::timing::detail {

namespace {

constexpr uint8_t kWide = 255;

// The order codes are written in: value (i, stream) of call i is code
// position slot[2 * i + stream] (minus the first call's missing gap).
std::vector<uint32_t> code_order(bool clustered, size_t n, const uint32_t *group) {
  std::vector<uint32_t> slot(2 * n);
  if (!clustered) {
    uint32_t k = 0;
    for (size_t i = 0; i < n; ++i) // all gaps, then all durations
      if (i > 0)
        slot[2 * i] = k++;
    for (size_t i = 0; i < n; ++i)
      slot[2 * i + 1] = k++;
    return slot;
  }
  const std::vector<uint32_t> order = calls_by_group(n, group);
  uint32_t k = 0;
  for (size_t from = 0; from < n;) {
    size_t to = from;
    while (to < n && group[order[to]] == group[order[from]])
      ++to;
    for (size_t j = from; j < to; ++j)
      if (order[j] > 0)
        slot[2 * size_t{order[j]}] = k++;
    for (size_t j = from; j < to; ++j)
      slot[2 * size_t{order[j]} + 1] = k++;
    from = to;
  }
  return slot;
}

// The previous symbol of each stream.
class Predictors {
public:
  explicit Predictors(bool clustered) : clustered_(clustered) {}
  int64_t &of(uint32_t group, int stream) {
    if (!clustered_)
      return plain_[stream];
    return by_key_[(uint64_t{group} << 1) | static_cast<uint64_t>(stream)];
  }

private:
  bool clustered_;
  int64_t plain_[2] = {0, 0};
  std::unordered_map<uint64_t, int64_t> by_key_;
};

struct Code {
  int64_t c = 0; // symbol - previous symbol
  bool exact = false;
  int64_t v = 0; // the exact value
};

} // namespace

void encode_pred(bool clustered, const Bounds &bounds, const ChunkView &calls, ByteWriter &w) {
  BinsByGroup bins(bounds, true);
  Predictors pred(clustered);
  const size_t nvalues = calls.n ? 2 * calls.n - 1 : 0;
  const std::vector<uint32_t> slot = code_order(clustered, calls.n, calls.group);
  std::vector<Code> codes(nvalues);
  closed_loop_encode(calls, [&](int stream, size_t i, int64_t v) {
    const Bins &b = bins.of(calls.group[i]);
    int64_t sym = 0, r = v;
    Code &code = codes[slot[2 * i + static_cast<size_t>(stream)]];
    if (b.quantise(v, sym, r)) {
      int64_t &prev = pred.of(calls.group[i], stream);
      code.c = wrap_sub(sym, prev);
      prev = sym;
    } else {
      code.exact = true;
      code.v = v;
      r = v;
    }
    return r;
  });
  std::string raw, wide;
  raw.reserve(nvalues + 16);
  ByteWriter b(raw), wb(wide);
  uint64_t nwide = 0;
  b.varint(nvalues);
  for (const Code &code : codes) {
    if (!code.exact && code.c >= -127 && code.c <= 127) {
      b.u8(static_cast<uint8_t>(code.c + 127));
      continue;
    }
    b.u8(kWide);
    ++nwide;
    if (code.exact) {
      wb.varint(0);
      wb.svarint(code.v);
    } else {
      wb.varint(zigzag_encode(code.c) + 1);
    }
  }
  b.varint(nwide);
  b.bytes(wide);
  w.svarint(calls.n ? calls.start[0] : 0);
  put_zstd(w, raw);
}

void decode_pred(ByteReader &r, bool clustered, const Bounds &bounds, size_t n,
                 const uint32_t *group, int64_t *start, int64_t *end) {
  const int64_t first = r.svarint();
  const std::string raw = get_zstd(r, 64 + 2 * n * (1 + 2 * kMaxVarintBytes), "pred block");
  ByteReader b(raw);
  const uint64_t nvalues = n ? 2 * n - 1 : 0;
  if (b.varint() != nvalues)
    b.fail("pred block's value count does not match the chunk's calls");
  const std::string_view bytes = b.bytes(static_cast<size_t>(nvalues));
  const uint64_t nwide = b.varint_max(nvalues, "pred wide code count");
  std::vector<Code> codes(static_cast<size_t>(nvalues));
  uint64_t wides = 0;
  for (size_t k = 0; k < codes.size(); ++k) {
    const uint8_t c = static_cast<uint8_t>(bytes[k]);
    if (c != kWide) {
      codes[k].c = int64_t{c} - 127;
      continue;
    }
    if (wides++ == nwide)
      b.fail("pred block lacks wide codes");
    const uint64_t tag = b.varint();
    if (tag == 0) {
      codes[k].exact = true;
      codes[k].v = b.svarint();
    } else {
      codes[k].c = zigzag_decode(tag - 1);
    }
  }
  if (wides != nwide || !b.at_end())
    b.fail("pred block has unused wide codes or trailing bytes");
  const std::vector<uint32_t> slot = code_order(clustered, n, group);
  BinsByGroup bins(bounds, true);
  Predictors pred(clustered);
  closed_loop_decode(n, first, start, end, [&](int stream, size_t i) -> int64_t {
    const Code &code = codes[slot[2 * i + static_cast<size_t>(stream)]];
    if (code.exact)
      return code.v;
    int64_t &prev = pred.of(group[i], stream);
    prev = wrap_add(prev, code.c);
    int64_t v = 0;
    if (!bins.of(group[i]).value_of(prev, v))
      b.fail("pred symbol out of range");
    return v;
  });
}

} // namespace pilgrim::timing::detail
