// The SITES section (docs/FORMAT.md §7.11): its bytes, its round trip on
// random tables, one clear error for malformed input (never a crash on
// random bytes), and the text readers print for a site (pilgrim/call_sites.h).
#include "pilgrim/call_sites.h"
#include "pilgrim/site_codec.h"
#include "pilgrim/trace_error.h"

#include <gtest/gtest.h>

#include <random>

using namespace pilgrim;

namespace {

std::vector<CstEntry> entries(std::initializer_list<uint32_t> refs) {
  std::vector<CstEntry> cst;
  for (uint32_t r : refs) {
    CstEntry e;
    e.signature = "x";
    e.site = r;
    cst.push_back(e);
  }
  return cst;
}

} // namespace

TEST(SiteCodec, BytesAreTheDocumentedOnes) {
  CallSite s{"/a/p", 0x11d9, "/src/h.c", 9, 3, "exchange"};
  const std::string b = encode_sites({s}, entries({1, 0}));
  // The strings sorted, each after what it shares with the one before; the
  // site's address and line as differences from the site before's (0).
  const std::string expect = std::string("\x03", 1) + std::string("\x00\x04", 2) + "/a/p" +
                             "\x01\x07" + "src/h.c" + std::string("\x00\x08", 2) + "exchange" +
                             "\x01" + "\x01" + "\xb2\x47" + "\x02" + "\x12" + "\x03" + "\x03" +
                             "\x02" + std::string("\x01\x00", 2);
  EXPECT_EQ(b, expect);
}

TEST(SiteCodec, RandomTablesRoundTrip) {
  std::mt19937_64 rng(16);
  for (int round = 0; round < 200; ++round) {
    std::vector<CallSite> sites(rng() % 20);
    for (CallSite &s : sites) {
      s.module = std::string(rng() % 30, 'm');
      s.address = rng() >> (rng() % 64);
      s.file = std::string(rng() % 30, 'f');
      s.line = static_cast<uint32_t>(rng());
      s.column = static_cast<uint32_t>(rng() % 200);
      s.function = std::string(rng() % 30, 'g');
    }
    std::vector<CstEntry> cst = entries({});
    for (size_t i = 0, n = rng() % 50; i < n; ++i)
      cst.push_back(entries({static_cast<uint32_t>(rng() % (sites.size() + 1))})[0]);
    const std::string b = encode_sites(sites, cst);
    std::vector<CallSite> back;
    std::vector<CstEntry> read = entries({});
    read.resize(cst.size());
    decode_sites(b, back, read);
    EXPECT_EQ(back, sites);
    for (size_t i = 0; i < cst.size(); ++i)
      EXPECT_EQ(read[i].site, cst[i].site);
  }
}

TEST(SiteCodec, MalformedInputIsOneClearError) {
  const CallSite s{"m", 1, "f", 1, 1, "g"};
  std::vector<CallSite> out;
  std::vector<CstEntry> two = entries({0, 0});
  // A reference past the table.
  EXPECT_THROW(decode_sites(encode_sites({s}, entries({2, 0})), out, two), TraceError);
  // References for another number of CST entries.
  std::vector<CstEntry> three = entries({0, 0, 0});
  EXPECT_THROW(decode_sites(encode_sites({s}, entries({1, 0})), out, three), TraceError);
  // Trailing bytes, truncation.
  EXPECT_THROW(decode_sites(encode_sites({s}, entries({1, 0})) + "x", out, two), TraceError);
  const std::string b = encode_sites({s}, entries({1, 0}));
  for (size_t n = 0; n < b.size(); ++n)
    EXPECT_THROW(decode_sites(b.substr(0, n), out, two), TraceError) << n;
  // Random bytes: decoded or refused, never a crash.
  std::mt19937_64 rng(8);
  for (int i = 0; i < 2000; ++i) {
    std::string r(rng() % 40, '\0');
    for (char &c : r)
      c = static_cast<char>(rng());
    try {
      decode_sites(r, out, two);
      for (const CstEntry &e : two)
        EXPECT_LE(e.site, out.size());
    } catch (const TraceError &) {
    }
  }
}

TEST(SiteText, FileLineColumnAndFunction) {
  EXPECT_EQ(site_text({"/bin/p", 0x10, "/src/halo.cpp", 42, 5, "exchange()"}),
            "halo.cpp:42:5 in exchange()");
  // A C name gets its parentheses; no column, no function.
  EXPECT_EQ(site_text({"/bin/p", 0x10, "halo.c", 7, 0, "main"}), "halo.c:7 in main()");
  EXPECT_EQ(site_text({"/bin/p", 0x10, "halo.c", 7, 3, ""}), "halo.c:7:3");
  // Without debug information: the module and the address.
  EXPECT_EQ(site_text({"/bin/prog", 0x11e4, "", 0, 0, "main"}), "prog+0x11e4 in main()");
  EXPECT_EQ(site_text({"", 0x5, "", 0, 0, ""}), "?+0x5");
}
