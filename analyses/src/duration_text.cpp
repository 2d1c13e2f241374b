#include "pilgrim/duration_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace pilgrim {

namespace {

constexpr const char *kUnits[] = {"ns", "us", "ms", "s"};

std::string printed(const char *format, double v, const char *unit) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return std::string(buf) + " " + unit;
}

} // namespace

std::string duration_text(double seconds) {
  if (!std::isfinite(seconds))
    return "?";
  if (seconds < 0)
    return "-" + duration_text(-seconds);
  if (seconds == 0)
    return "0 s";
  if (seconds >= 1e9)
    return printed("%.2e", seconds, "s");
  // Round to 3 significant digits first (printf rounds correctly), then pick
  // the unit from the rounded value's decade.
  const double ns = seconds * 1e9;
  char sci[32];
  std::snprintf(sci, sizeof sci, "%.2e", ns); // "d.dde+XX"
  const int decade = std::atoi(sci + 5);
  if (decade < 0) {
    const std::string text = printed("%.3f", ns, "ns");
    return text == "0.000 ns" ? "0 s" : text;
  }
  if (decade >= 12)
    return printed("%.0f", seconds, "s");
  const int unit = decade / 3;
  const int integer_digits = decade - 3 * unit + 1; // 1, 2 or 3
  const char digits[3] = {sci[0], sci[2], sci[3]};
  std::string text(digits, integer_digits);
  if (integer_digits < 3)
    text += "." + std::string(digits + integer_digits, 3 - integer_digits);
  return text + " " + kUnits[unit];
}

} // namespace pilgrim
