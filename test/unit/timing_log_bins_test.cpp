// The relative-bound codecs' bins (timing/src/log_bins.cpp): the first guess
// of a value's bin comes from a table of log2 (and a memo of recent values);
// neither may cost compression. Wherever libm's log finds a bin within eps
// (k = ceil or round of log_B |v|, or a neighbour), quantise must give a
// symbol too, its value within eps, and the symbol must decode to that value,
// for the bounds users give (0.5 down to 1e-6), magnitudes up to 2^59.
// (Where no bin fits, e.g. a value at the rounded midpoint of two centred
// bins, the exact fallback is by design: FORMAT.md §7.10.)
#include "closed_loop.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using pilgrim::timing::detail::Bins;

namespace {

// Whether bin k, k - 1 or k + 1 holds `a` within eps, k from libm's log
// and the bins' powers by repeated multiplication, as log_bins.cpp makes them.
bool libm_fits(double eps, bool centred, int64_t a) {
  const double b = centred ? (1 + eps) * (1 + eps) : 1 + eps;
  const double l = std::log(static_cast<double>(a)) / std::log(b);
  const int64_t k = static_cast<int64_t>(centred ? std::floor(l + 0.5) : std::ceil(l));
  for (int64_t c : {k - 1, k, k + 1}) {
    double p = 1;
    for (int64_t i = 0; i < c; ++i)
      p *= b;
    const double r = centred ? std::floor(p + 0.5) : std::floor(p);
    if (std::fabs(r - static_cast<double>(a)) <= eps * static_cast<double>(a))
      return true;
  }
  return false;
}

} // namespace

TEST(TimingLogBins, EveryMagnitudeGetsASymbolWithinItsBound) {
  std::mt19937_64 rng(7);
  for (double eps : {0.5, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1e-6}) {
    for (bool centred : {false, true}) {
      const Bins bins(eps, centred);
      const int64_t small = static_cast<int64_t>(std::min(1.0 / eps, 1e15));
      for (int i = 0; i < 3000; ++i) {
        // Log-uniform magnitudes, then each again (the memo's answer).
        const double l = std::ldexp(static_cast<double>(rng() >> 11), -53) * 59;
        const int64_t a = std::max<int64_t>(small + 1, static_cast<int64_t>(std::exp2(l)));
        for (int again = 0; again < 2; ++again)
          for (int64_t v : {a, -a}) {
            int64_t sym = 0, value = 0, back = 0;
            if (!bins.quantise(v, sym, value)) {
              EXPECT_FALSE(libm_fits(eps, centred, a)) << eps << " " << v;
              continue;
            }
            EXPECT_LE(std::fabs(static_cast<double>(value - v)), eps * std::fabs(double(v)))
                << eps << " " << v;
            ASSERT_TRUE(bins.value_of(sym, back));
            EXPECT_EQ(back, value);
          }
      }
    }
  }
}

TEST(TimingLogBins, SmallValuesAreExact) {
  const Bins bins(0.1, false);
  for (int64_t v = -10; v <= 10; ++v) {
    int64_t sym = 0, value = 0;
    ASSERT_TRUE(bins.quantise(v, sym, value));
    EXPECT_EQ(value, v);
    EXPECT_EQ(sym, v);
  }
}
