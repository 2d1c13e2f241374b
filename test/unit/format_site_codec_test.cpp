// The site table, META key 8 (docs/FORMAT.md §5.1): its bytes, its round trip
// on random tables (sites with and without debug information, plugin site
// ids, empty tables), one clear error for malformed input (never a crash on
// truncated, corrupted or random bytes), its place in a file, and the text
// readers print for a site (pilgrim/call_sites.h).
#include "pilgrim/call_sites.h"
#include "pilgrim/site_codec.h"

#include <gtest/gtest.h>

#include <random>

#include "../fuzz/sample_trace.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

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

// What a table reads back as: the address only where there is no file.
std::vector<CallSite> as_read(std::vector<CallSite> sites) {
  for (CallSite &s : sites)
    if (!s.file.empty())
      s.address = 0;
  return sites;
}

std::vector<CallSite> random_sites(std::mt19937_64 &rng) {
  // Few distinct texts, so that runs and shared prefixes occur.
  static const char *const kModules[] = {"halo", "libx.so", "<plugin>", ""};
  static const char *const kFiles[] = {"", "/src/halo.cpp", "/src/halo.h", "/src/h", "rel.c"};
  static const char *const kFunctions[] = {"", "main", "halo::Ring::exchange(int) const"};
  std::vector<CallSite> sites(rng() % 40);
  for (CallSite &s : sites) {
    s.module = kModules[rng() % 4];
    s.address = rng() >> (rng() % 64);
    s.file = rng() % 8 == 0 ? std::string(rng() % 30, 'f') : kFiles[rng() % 5];
    s.line = rng() % 4 == 0 ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(rng() % 300);
    s.column = rng() % 8 == 0 ? static_cast<uint32_t>(rng()) : static_cast<uint32_t>(rng() % 80);
    s.function = kFunctions[rng() % 3];
    if (rng() % 4 == 0 && !sites.empty()) // the same text as the site before
      s.file = sites[0].file;
  }
  return sites;
}

} // namespace

TEST(SiteCodec, BytesAreTheDocumentedOnes) {
  // docs/FORMAT.md §5.1's example.
  const std::vector<CallSite> sites = {{"p", 0x11d9, "/src/h.c", 9, 3, "exchange"},
                                       {"p", 0x1204, "/src/h.c", 12, 5, "exchange"},
                                       {"p", 0x1300, "", 0, 0, ""}};
  const std::string b = encode_sites(sites, entries({1, 2, 2, 0, 3}));
  const std::string expect = std::string("\x03", 1) +                         // three texts
                             std::string("\x00\x08", 2) + "/src/h.c" +        // text 0 (ref 1)
                             std::string("\x00\x08", 2) + "exchange" +        // text 1 (ref 2)
                             std::string("\x00\x01", 2) + "p" +               // text 2 (ref 3)
                             "\x03" +                                         // three sites
                             "\x03\x03" +                                     // modules: 3 x "p"
                             std::string("\x01\x02\x00\x01", 4) +             // files
                             std::string("\x02\x02\x00\x01", 4) +             // functions
                             "\x12\x06\x17" +                                 // lines 9, 12, 0
                             std::string("\x03\x05\x00", 3) +                 // columns
                             "\x80\x4c" +                                     // site 2's address
                             "\x05" + std::string("\x00\x00\x01\x05\x04", 5); // references
  EXPECT_EQ(b, expect);
  std::vector<CallSite> back;
  std::vector<CstEntry> cst = entries({0, 0, 0, 0, 0});
  decode_sites(b, back, cst);
  EXPECT_EQ(back, as_read(sites));
  EXPECT_EQ(back[2].address, 0x1300u);
  for (size_t i = 0; i < cst.size(); ++i)
    EXPECT_EQ(cst[i].site, (std::vector<uint32_t>{1, 2, 2, 0, 3}[i]));
}

TEST(SiteCodec, RandomTablesRoundTrip) {
  std::mt19937_64 rng(17);
  for (int round = 0; round < 500; ++round) {
    const std::vector<CallSite> sites = random_sites(rng);
    std::vector<CstEntry> cst = entries({});
    for (size_t i = 0, n = rng() % 60; i < n; ++i)
      cst.push_back(entries({static_cast<uint32_t>(rng() % (sites.size() + 1))})[0]);
    const std::string b = encode_sites(sites, cst);
    std::vector<CallSite> back;
    std::vector<CstEntry> read = entries({});
    read.resize(cst.size());
    decode_sites(b, back, read);
    // Every site and reference comes back; the address where it is the
    // only way to name the site.
    ASSERT_EQ(back, as_read(sites));
    for (size_t i = 0; i < cst.size(); ++i)
      EXPECT_EQ(read[i].site, cst[i].site);
    // Writing what was read gives the same bytes.
    EXPECT_EQ(encode_sites(back, read), b);
  }
}

TEST(SiteCodec, EmptyTables) {
  // No sites: every reference is 0 ("no site").
  const std::string b = encode_sites({}, entries({0, 0}));
  EXPECT_EQ(b, std::string("\x00\x00\x02\x01\x01", 5));
  std::vector<CallSite> back = {CallSite{}};
  std::vector<CstEntry> cst = entries({5, 5});
  decode_sites(b, back, cst);
  EXPECT_TRUE(back.empty());
  EXPECT_EQ(cst[0].site, 0u);
  EXPECT_EQ(cst[1].site, 0u);
  std::vector<CstEntry> none;
  decode_sites(encode_sites({}, none), back, none);
  EXPECT_TRUE(back.empty());
}

TEST(SiteCodec, WriterRefusesAReferencePastTheTable) {
  EXPECT_THROW(encode_sites({CallSite{"m", 1, "f", 1, 1, "g"}}, entries({2})), TraceError);
}

TEST(SiteCodec, MalformedInputIsOneClearError) {
  const CallSite s{"m", 1, "f", 1, 1, "g"};
  std::vector<CallSite> out;
  std::vector<CstEntry> two = entries({0, 0});
  auto fails = [&](const std::string &bytes, std::vector<CstEntry> &cst) {
    try {
      decode_sites(bytes, out, cst);
    } catch (const TraceError &e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
      return true;
    }
    return false;
  };
  const std::string b = encode_sites({s}, entries({1, 0}));
  // A reference past the table: the second reference's difference 0 names
  // site 2 (the one after the first entry's), of a one-site table.
  std::string past = b;
  ASSERT_EQ(past.back(), '\x03');
  past.back() = '\x00';
  EXPECT_TRUE(fails(past, two));
  // References for another number of CST entries.
  std::vector<CstEntry> three = entries({0, 0, 0});
  EXPECT_TRUE(fails(b, three));
  // Trailing bytes, every truncation.
  EXPECT_TRUE(fails(b + "x", two));
  for (size_t n = 0; n < b.size(); ++n)
    EXPECT_TRUE(fails(b.substr(0, n), two)) << n;
  // A run of 0, a run past the table: texts "f" "g" "m", one site, module run.
  const size_t runs = 1 + 3 * 3 + 1; // after ntexts, the texts and nsites
  ASSERT_EQ(b.substr(runs, 2), std::string("\x03\x01", 2));
  std::string run = b;
  run[runs + 1] = 0;
  EXPECT_TRUE(fails(run, two));
  run[runs + 1] = 2;
  EXPECT_TRUE(fails(run, two));
  // A text that shares more than the one before has.
  std::string shared = b;
  shared[4] = 5; // text 1 ("g") sharing 5 bytes of "f"
  EXPECT_TRUE(fails(shared, two));
  // Every single corrupted byte of a random table, and random bytes:
  // decoded or refused, never a crash, never a reference past the table.
  std::mt19937_64 rng(8);
  const std::vector<CallSite> sites = random_sites(rng);
  std::vector<CstEntry> cst = entries({0, 1, 2, 0, 1});
  const std::string valid =
      encode_sites(sites.size() >= 2 ? sites : std::vector<CallSite>{s, s}, cst);
  for (int i = 0; i < 5000; ++i) {
    std::string r;
    if (i % 2) {
      r.assign(rng() % 60, '\0');
      for (char &c : r)
        c = static_cast<char>(rng());
    } else {
      r = valid;
      r[rng() % r.size()] = static_cast<char>(rng());
    }
    std::vector<CstEntry> read = entries({0, 0, 0, 0, 0});
    if (!fails(r, read)) {
      for (const CstEntry &e : read)
        EXPECT_LE(e.site, out.size());
    }
  }
}

// In a file: META key 8 of a version-8 file; skipped as an unknown key in
// an older version's file; the retired section type 22 is refused.
TEST(SiteCodec, TheTableIsMetaKey8) {
  std::vector<RankTrace> ranks;
  for (int r = 0; r < 2; ++r)
    ranks.push_back(sample::ring_rank(r));
  MergedTrace m = merged_from_ranks(ranks);
  sample::give_sites(m.cst);
  m.sites = sample::ring_sites();
  const std::string bytes =
      write_merged_trace_to_memory(sample::ring_header(2), sample::ring_functions(), m);
  const Container c = parse_container(bytes, "t.pilgrim");
  for (const SectionEntry &e : c.sections)
    EXPECT_NE(e.type, static_cast<uint16_t>(SectionType::SitesDraft));
  std::string value;
  decode_meta(c.payload(0), &value);
  EXPECT_EQ(value, encode_sites(m.sites, m.cst));
  const Trace t = read_trace_from_memory(bytes, "t.pilgrim");
  EXPECT_EQ(t.merged.sites, as_read(m.sites));
  for (size_t i = 0; i < m.cst.size(); ++i)
    EXPECT_EQ(t.merged.cst[i].site, m.cst[i].site);
  ASSERT_NE(call_site(t, 1), nullptr);
  EXPECT_EQ(site_text(*call_site(t, 1)), "ring.c:12:5 in main()");
  EXPECT_EQ(site_text(*call_site(t, 4)), "libhelper.so+0x2040 in helper_send()");
  EXPECT_EQ(call_site(t, 0), nullptr);
  // Older versions cannot hold sites; the writer says so.
  WriteOptions o;
  o.format_version = 7;
  EXPECT_THROW(write_merged_trace_to_memory(sample::ring_header(2), sample::ring_functions(), m, o),
               TraceError);
}

TEST(SiteCodec, RetiredSectionType22IsRefused) {
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.set_version(kFormatVersion);
  const Trace ring = read_trace_from_memory(sample::ring_trace_bytes(2));
  const std::string bytes =
      write_merged_trace_to_memory(sample::ring_header(2), sample::ring_functions(), ring.merged);
  const Container c = parse_container(bytes, "t.pilgrim");
  for (size_t i = 0; i < c.sections.size(); ++i)
    w.add_section(c.sections[i].type, c.sections[i].rank, c.sections[i].flags, c.payload(i));
  w.add_section(22, kNoRank, 0, encode_sites({}, {}));
  w.finish();
  try {
    read_trace_from_memory(out, "t.pilgrim");
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_NE(std::string(e.what()).find("section type 22 is reserved"), std::string::npos)
        << e.what();
  }
}

TEST(SiteCodec, AnEmptyValueIsRefused) {
  std::string meta = encode_meta(sample::ring_header(2));
  meta += std::string("\x08\x00", 2);
  EXPECT_THROW(decode_meta(meta), TraceError);
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
