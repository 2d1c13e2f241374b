// A time as a person reads it, for the tools' tables and messages:
// "12.3 us", "1.50 ms", "2.01 s".
//
//   * 3 significant digits in the largest unit of ns, us, ms and s that
//     keeps the number at least 1 ("999 ns", then "1.00 us"); the unit is
//     chosen after rounding, so 999.7 ns reads "1.00 us";
//   * below 1 ns: ns with 3 decimals ("0.500 ns"); what rounds to 0.000 ns,
//     and zero itself, reads "0 s";
//   * from 1000 s: whole seconds ("3600 s"); from 1e9 s (31 years, only a
//     damaged trace holds that) 3 significant digits with an exponent
//     ("1.00e+12 s");
//   * a negative time is "-" and the text of its magnitude; NaN and
//     infinities read "?".
//
// The micro sign is written "us", in ASCII: every line the tools print is
// ASCII (text from the trace is escaped, docs/DUMP.md), columns are padded by
// bytes, and batch logs are often read in the C locale.
#pragma once

#include <string>

namespace pilgrim {

std::string duration_text(double seconds);

} // namespace pilgrim
