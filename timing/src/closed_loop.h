// What the relative-bound codecs (cfg, hist, pred) share: exponential bins
// and the closed loop over a chunk's calls (docs/FORMAT.md, "Per-call
// timing: chunks").
//
// Values. Per call the codecs quantise two signed tick counts, in call
// order: the gap g = start - (the decoder's reconstruction of the previous
// call's end), quantised closed loop, then the duration d = end - start,
// quantised as it is. The closed loop on the gap keeps every reconstructed
// start within eps of the gap it was quantised from, |ŝ - s| <= eps * |s -
// ê_prev|: the start error is at most eps times the previous end's error
// plus eps times the gap, so errors shrink instead of accumulating (no
// drift). Durations are quantised from the exact duration, so every decoded
// duration is within eps of the exact one, and the end is off by the
// start's error plus the duration's. (Quantising the duration against the
// reconstructed start as well bounds the end the same way but makes each
// duration absorb its start's error: a 60-tick call after a 1 ms compute
// gap decoded as -40000 ticks at eps = 0.1; measured with
// bench/timing_codecs, duration PSNR 11.6 dB against 40+ dB this way.)
// A chunk's first start is stored exactly and its first call has no gap.
//
// Symbols. A value v becomes a signed symbol: 0 for v = 0; v itself when
// |v| <= S = floor(1/eps) (below 1/eps ticks the bound leaves no room: such
// values are exact); otherwise sign(v) * (S + k - k0), k the bin of |v| and
// k0 the bin just below S + 1. Bins have ratio B: cfg and hist use the
// paper's bins, B = 1 + eps, k = ceil(log_B |v|), value floor(B^k); pred
// uses centred bins, B = (1 + eps)^2, k = round(log_B |v|), value
// round(B^k). Powers of B come from repeated IEEE multiplication (no libm),
// so every machine decodes the same ticks. The encoder checks every symbol
// (|value - v| <= eps * |v|) and codes the value exactly when no symbol
// meets the bound.
#pragma once

#include "chunk_codecs.h"

#include <cstdint>
#include <vector>

namespace pilgrim::timing::detail {

class Bins {
public:
  Bins(double eps, bool centred);
  double eps() const { return eps_; }
  // The symbol of value v and the value it decodes to; false when v is to
  // be coded exactly.
  // Memoised: a value seen lately costs one table probe (a loop's calls
  // repeat the same few tick counts).
  // Inline: the codecs call it once per value.
  bool quantise(int64_t v, int64_t &sym, int64_t &value) const {
    if (v == 0) {
      sym = value = 0;
      return true;
    }
    if (v <= -kLimit || v >= kLimit)
      return false;
    const int64_t a = v < 0 ? -v : v;
    if (a <= small_) {
      sym = value = v;
      return true;
    }
    Memo &m = memo_[static_cast<uint64_t>(a) * 0x9E3779B97F4A7C15ull >> 54];
    if (m.a != a) {
      m.a = a;
      m.ok = quantise_magnitude(a, m.s, m.r);
    }
    if (!m.ok)
      return false;
    sym = v < 0 ? -m.s : m.s;
    value = v < 0 ? -m.r : m.r;
    return true;
  }
  // Larger magnitudes are coded exactly.
  static constexpr int64_t kLimit = int64_t{1} << 62;
  // The value of a symbol; false when no value has that symbol.
  bool value_of(int64_t sym, int64_t &v) const;

private:
  double power(int64_t k) const; // B^k, k >= 0
  int64_t rep(int64_t k) const;  // the value of bin k
  bool fits(int64_t v, int64_t r) const;
  bool quantise_magnitude(int64_t a, int64_t &s, int64_t &r) const; // a > S
  double log_base_b(int64_t a) const;                               // about log_B(a), a > 0

  struct Memo {
    int64_t a = -1; // the magnitude; -1 empty
    int64_t s = 0, r = 0;
    bool ok = false;
  };
  static constexpr size_t kMemo = 1024;
  mutable Memo memo_[kMemo];
  double inv_log2_base_; // 1 / log2(B)
  bool fast_log_;        // log2 from the table is exact enough for these bins
  double eps_;
  bool centred_;
  double log_base_;
  int64_t small_;                  // S
  int64_t k0_;                     // bins <= k0 hold values <= S
  int64_t k_max_;                  // the last bin below 2^62
  std::vector<double> low_, high_; // B^(k mod 2^16), B^(2^16 * (k div 2^16))
};

// The bins of each group's bound, shared by groups with the same bound.
class BinsByGroup {
public:
  BinsByGroup(const Bounds &bounds, bool centred) : bounds_(bounds), centred_(centred) {}
  // Inline: the codecs look a group up once per value.
  const Bins &of(uint32_t group) {
    if (group < slot_.size() && slot_[group] >= 0)
      return bins_[static_cast<size_t>(slot_[group])];
    return add(group);
  }

private:
  const Bins &add(uint32_t group); // of() for a group not seen yet
  const Bounds &bounds_;
  bool centred_;
  std::vector<Bins> bins_;
  std::vector<int32_t> slot_; // group -> index into bins_, -1 unknown (groups < 2^20)
};

// Stream 0: gaps, stream 1: durations.
enum Stream : int { kGap = 0, kDuration = 1 };

// Runs the closed loop over the chunk: `code(stream, i, v)` quantises value
// v of call i and returns its reconstruction.
template <class Code> void closed_loop_encode(const ChunkView &c, Code &&code) {
  int64_t prev_end = c.n ? c.start[0] : 0;
  for (size_t i = 0; i < c.n; ++i) {
    const int64_t s =
        i == 0 ? c.start[0] : wrap_add(prev_end, code(kGap, i, wrap_sub(c.start[i], prev_end)));
    prev_end = wrap_add(s, code(kDuration, i, wrap_sub(c.end[i], c.start[i])));
  }
}

// The decoder's side: `value(stream, i)` returns the reconstruction of value
// i of that stream.
template <class Value>
void closed_loop_decode(size_t n, int64_t first_start, int64_t *start, int64_t *end,
                        Value &&value) {
  int64_t prev_end = first_start;
  for (size_t i = 0; i < n; ++i) {
    start[i] = i == 0 ? first_start : wrap_add(prev_end, value(kGap, i));
    end[i] = wrap_add(start[i], value(kDuration, i));
    prev_end = end[i];
  }
}

} // namespace pilgrim::timing::detail
