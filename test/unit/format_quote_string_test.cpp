// quote_string (call_formatter.h): what pilgrim-dump prints and proxygen
// pastes into C++ must be a valid literal of the same bytes, whatever
// follows an escaped byte.
#include "pilgrim/call_formatter.h"

#include <gtest/gtest.h>

#include <string>

namespace pilgrim {
namespace {

// Reads a literal written by quote_string back into bytes, with the C rules
// for the escapes it uses (an octal escape takes at most three digits).
std::string unquote(const std::string &q) {
  std::string out;
  EXPECT_GE(q.size(), 2u);
  for (size_t i = 1; i + 1 < q.size(); ++i) {
    if (q[i] != '\\') {
      out += q[i];
      continue;
    }
    const char e = q[++i];
    if (e == 'n')
      out += '\n';
    else if (e == 't')
      out += '\t';
    else if (e >= '0' && e <= '7') {
      int v = 0, n = 0;
      for (; n < 3 && q[i] >= '0' && q[i] <= '7'; ++n, ++i)
        v = v * 8 + (q[i] - '0');
      --i;
      out += static_cast<char>(v);
    } else
      out += e;
  }
  return out;
}

TEST(QuoteString, EscapesEndBeforeTheNextCharacter) {
  EXPECT_EQ(quote_string(std::string("\x01") + "A7"), "\"\\001A7\"");
  EXPECT_EQ(quote_string("tab\there \"q\" back\\slash\n"), "\"tab\\there \\\"q\\\" back\\\\slash\\n\"");
  EXPECT_EQ(quote_string(std::string("\xff") + "0"), "\"\\3770\"");
}

TEST(QuoteString, EveryByteRoundTrips) {
  std::string all;
  for (int c = 0; c < 256; ++c) {
    all += static_cast<char>(c);
    all += '7'; // an octal digit after every byte
  }
  EXPECT_EQ(unquote(quote_string(all)), all);
}

} // namespace
} // namespace pilgrim
