// Times as a person reads them (pilgrim/duration_text.h): fixed examples at
// every boundary, and invariants on random times across 24 decades.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "pilgrim/duration_text.h"

namespace pilgrim {
namespace {

struct Parsed {
  std::string number, unit;
  double seconds = 0;
};

// "12.3 us" -> {"12.3", "us", 12.3e-6}.
Parsed parse(const std::string &text) {
  Parsed p;
  const size_t space = text.find(' ');
  EXPECT_NE(space, std::string::npos) << text;
  EXPECT_EQ(text.find(' ', space + 1), std::string::npos) << text;
  p.number = text.substr(0, space);
  p.unit = text.substr(space + 1);
  double scale = 0;
  if (p.unit == "ns")
    scale = 1e-9;
  else if (p.unit == "us")
    scale = 1e-6;
  else if (p.unit == "ms")
    scale = 1e-3;
  else if (p.unit == "s")
    scale = 1;
  else
    ADD_FAILURE() << "unit of '" << text << "'";
  char *end = nullptr;
  p.seconds = std::strtod(p.number.c_str(), &end) * scale;
  EXPECT_EQ(*end, '\0') << text;
  return p;
}

size_t significant_digits(const std::string &number) {
  std::string digits;
  for (char c : number)
    if (c >= '0' && c <= '9')
      digits.push_back(c);
  return digits.size() - std::min(digits.size(), digits.find_first_not_of('0'));
}

TEST(FormatDurationText, Examples) {
  EXPECT_EQ(duration_text(1.234e-5), "12.3 us");
  EXPECT_EQ(duration_text(1.5e-3), "1.50 ms");
  EXPECT_EQ(duration_text(2.01), "2.01 s");
  EXPECT_EQ(duration_text(2e-3), "2.00 ms");
  EXPECT_EQ(duration_text(1e-9), "1.00 ns");
  EXPECT_EQ(duration_text(42e-9), "42.0 ns");
  EXPECT_EQ(duration_text(123e-9), "123 ns");
  EXPECT_EQ(duration_text(999.4e-9), "999 ns");
  EXPECT_EQ(duration_text(999.6e-9), "1.00 us");
  EXPECT_EQ(duration_text(999.6e-6), "1.00 ms");
  EXPECT_EQ(duration_text(0.9996), "1.00 s");
  EXPECT_EQ(duration_text(999.4), "999 s");
  EXPECT_EQ(duration_text(999.6), "1000 s");
  EXPECT_EQ(duration_text(3600.4), "3600 s");
  EXPECT_EQ(duration_text(0.5e-9), "0.500 ns");
  EXPECT_EQ(duration_text(0.0123e-9), "0.012 ns");
}

TEST(FormatDurationText, ZeroTinyHugeAndNonFinite) {
  EXPECT_EQ(duration_text(0.0), "0 s");
  EXPECT_EQ(duration_text(-0.0), "0 s");
  EXPECT_EQ(duration_text(1e-13), "0 s");
  EXPECT_EQ(duration_text(DBL_MIN), "0 s");
  EXPECT_EQ(duration_text(std::numeric_limits<double>::denorm_min()), "0 s");
  EXPECT_EQ(duration_text(999999999.4), "999999999 s");
  EXPECT_EQ(duration_text(1e9), "1.00e+09 s");
  EXPECT_EQ(duration_text(1e12), "1.00e+12 s");
  EXPECT_EQ(duration_text(DBL_MAX), "1.80e+308 s");
  EXPECT_EQ(duration_text(-1.5e-3), "-1.50 ms");
  EXPECT_EQ(duration_text(std::nan("")), "?");
  EXPECT_EQ(duration_text(HUGE_VAL), "?");
  EXPECT_EQ(duration_text(-HUGE_VAL), "?");
}

// Log-uniform times from 1e-12 s to 1e12 s, and their negatives.
std::vector<double> random_times() {
  std::mt19937_64 rng(12);
  std::uniform_real_distribution<double> exponent(-12, 12);
  std::vector<double> times;
  for (int i = 0; i < 20000; ++i)
    times.push_back(std::pow(10.0, exponent(rng)));
  return times;
}

TEST(FormatDurationText, RandomTimesReadBackInTheRightUnit) {
  for (double t : random_times()) {
    const std::string text = duration_text(t);
    ASSERT_EQ(duration_text(-t), "-" + text);
    if (text == "0 s") {
      ASSERT_LT(t, 0.0005e-9);
      continue;
    }
    const Parsed p = parse(text);
    if (t < 0.9995e-9) { // below 1 ns: 3 decimals of ns
      ASSERT_EQ(p.unit, "ns") << t;
      ASSERT_LE(std::fabs(p.seconds - t), 0.0005e-9 * 1.000001) << text;
    } else if (t < 999.5) { // 3 significant digits, the number in [1, 1000)
      const double floor_of_unit = p.unit == "ns"   ? 1e-9
                                   : p.unit == "us" ? 1e-6
                                   : p.unit == "ms" ? 1e-3
                                                    : 1.0;
      ASSERT_GE(p.seconds, floor_of_unit * 0.999999) << text;
      ASSERT_LT(p.seconds, floor_of_unit * 1000) << text;
      ASSERT_EQ(significant_digits(p.number), 3u) << text;
      ASSERT_LE(std::fabs(p.seconds - t), 0.005 * t) << t << " read as " << text;
    } else if (t < 1e9) { // whole seconds
      ASSERT_EQ(p.unit, "s");
      ASSERT_EQ(p.number.find_first_not_of("0123456789"), std::string::npos) << text;
      ASSERT_LE(std::fabs(p.seconds - t), 0.5) << text;
    } else {
      ASSERT_EQ(p.unit, "s");
      ASSERT_NE(p.number.find("e+"), std::string::npos) << text;
      ASSERT_LE(std::fabs(p.seconds - t), 0.005 * t) << text;
    }
  }
}

TEST(FormatDurationText, RandomTimesStayInOrder) {
  std::vector<double> times = random_times();
  std::sort(times.begin(), times.end());
  double previous = 0;
  for (double t : times) {
    const std::string text = duration_text(t);
    const double read = text == "0 s" ? 0 : parse(text).seconds;
    ASSERT_GE(read, previous) << t << " read as " << text;
    previous = read;
  }
}

} // namespace
} // namespace pilgrim
