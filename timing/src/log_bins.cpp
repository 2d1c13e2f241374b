// Exponential bins of the relative-bound codecs (closed_loop.h).
#include "closed_loop.h"

#include <cmath>
#include <cstring>

namespace pilgrim::timing::detail {

namespace {
constexpr int kLowBits = 16;

// log2 of the mantissa 1 + i / 2^kLogBits, i = 0 .. 2^kLogBits: log2(x) is
// the exponent plus this, linear in between. The error of the
// interpolation is at most (2^-kLogBits)^2 / (8 ln 2) < 1e-8.
constexpr int kLogBits = 12;
struct Log2Table {
  double v[(1 << kLogBits) + 1];
  Log2Table() {
    for (int i = 0; i <= (1 << kLogBits); ++i)
      v[i] = std::log2(1.0 + static_cast<double>(i) / (1 << kLogBits));
  }
};
const Log2Table &log2_table() {
  static const Log2Table table;
  return table;
}

double fast_log2(double x) { // x >= 1
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const int e = static_cast<int>(bits >> 52) - 1023;
  const uint64_t m = bits & ((uint64_t{1} << 52) - 1);
  const size_t i = static_cast<size_t>(m >> (52 - kLogBits));
  const double f = static_cast<double>(m & ((uint64_t{1} << (52 - kLogBits)) - 1)) *
                   (1.0 / static_cast<double>(uint64_t{1} << (52 - kLogBits)));
  const double *t = log2_table().v;
  return e + t[i] + f * (t[i + 1] - t[i]);
}
} // namespace

Bins::Bins(double eps, bool centred) : eps_(eps), centred_(centred) {
  const double b = centred ? (1 + eps) * (1 + eps) : 1 + eps;
  log_base_ = std::log(b);
  inv_log2_base_ = 1 / std::log2(b);
  // The table's log2 is within 1e-8: with bins wider than 1e-5 in log2 the
  // first guess stays within the one bin either way the encoder tries.
  fast_log_ = std::log2(b) > 1e-5;
  log2_table();
  small_ = eps >= 1 ? 0 : static_cast<int64_t>(std::min(1.0 / eps, 1e15));
  // Powers by repeated multiplication: the same doubles on every machine.
  low_.push_back(1);
  while (low_.size() < (size_t{1} << kLowBits) && low_.back() < static_cast<double>(kLimit))
    low_.push_back(low_.back() * b);
  const double step = low_.size() == (size_t{1} << kLowBits) ? low_.back() * b : HUGE_VAL;
  high_.push_back(1);
  while (high_.back() < static_cast<double>(kLimit) && step < HUGE_VAL)
    high_.push_back(high_.back() * step);
  // k_max: the last bin whose value stays below 2^62; k0: the last bin whose
  // value is <= S. Both from the table, by search (rep is nondecreasing).
  auto last_below = [&](double limit) {
    int64_t lo = 0, hi = static_cast<int64_t>(high_.size()) << kLowBits;
    while (lo < hi) { // the first k with power(k) > limit
      const int64_t mid = lo + (hi - lo) / 2;
      if (power(mid) > limit)
        hi = mid;
      else
        lo = mid + 1;
    }
    return lo - 1;
  };
  k_max_ = last_below(static_cast<double>(kLimit) / 2);
  k0_ = last_below(static_cast<double>(small_));
}

double Bins::power(int64_t k) const {
  const size_t lo = static_cast<size_t>(k) & ((size_t{1} << kLowBits) - 1);
  const size_t hi = static_cast<size_t>(k) >> kLowBits;
  if (hi >= high_.size() || lo >= low_.size())
    return HUGE_VAL;
  return high_[hi] * low_[lo];
}

int64_t Bins::rep(int64_t k) const {
  const double p = power(k);
  return static_cast<int64_t>(centred_ ? std::floor(p + 0.5) : std::floor(p));
}

bool Bins::fits(int64_t v, int64_t r) const {
  return std::fabs(static_cast<double>(r - v)) <= eps_ * static_cast<double>(v);
}

double Bins::log_base_b(int64_t a) const {
  const double x = static_cast<double>(a);
  return fast_log_ ? fast_log2(x) * inv_log2_base_ : std::log(x) / log_base_;
}

bool Bins::quantise_magnitude(int64_t a, int64_t &s, int64_t &r) const {
  const double l = log_base_b(a);
  const int64_t k = static_cast<int64_t>(centred_ ? std::floor(l + 0.5) : std::ceil(l));
  for (int64_t cand : {k, k - 1, k + 1}) {
    if (cand <= k0_ || cand > k_max_)
      continue;
    r = rep(cand);
    if (!fits(a, r))
      continue;
    s = small_ + (cand - k0_);
    return true;
  }
  return false;
}

bool Bins::value_of(int64_t sym, int64_t &v) const {
  if (sym == INT64_MIN)
    return false;
  const int64_t a = sym < 0 ? -sym : sym;
  if (a <= small_) {
    v = sym;
    return true;
  }
  const int64_t k = a - small_ + k0_;
  if (k > k_max_)
    return false;
  const int64_t r = rep(k);
  v = sym < 0 ? -r : r;
  return true;
}

const Bins &BinsByGroup::add(uint32_t group) {
  const double eps = bounds_.of(group);
  int32_t found = -1;
  for (size_t i = 0; i < bins_.size(); ++i)
    if (bins_[i].eps() == eps)
      found = static_cast<int32_t>(i);
  if (found < 0) {
    bins_.emplace_back(eps, centred_);
    found = static_cast<int32_t>(bins_.size() - 1);
  }
  if (group < (1u << 20)) {
    if (group >= slot_.size())
      slot_.resize(size_t{group} + 1, -1);
    slot_[group] = found;
  }
  return bins_[static_cast<size_t>(found)];
}

} // namespace pilgrim::timing::detail
