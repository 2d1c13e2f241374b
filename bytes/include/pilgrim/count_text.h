// "1 rank", "8 ranks", "1 call": a count and its noun, for the one-line
// messages the tools print.
#pragma once

#include <cstdint>
#include <string>

namespace pilgrim {

inline std::string count_text(uint64_t n, const char *singular) {
  return std::to_string(n) + " " + singular + (n == 1 ? "" : "s");
}

} // namespace pilgrim
