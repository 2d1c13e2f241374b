// The bytes of per-call timing that do not depend on the codecs: META's
// timing_spec (key 7) and sections written by someone else (the ranks'
// RANK_TIMING sections, written with MPI-IO: ContainerWriter's external
// sections).
#include <gtest/gtest.h>

#include <string>

#include "../fixtures/fixture_files.h"
#include "pilgrim/call_times.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/meta_codec.h"
#include "pilgrim/timing_mode.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim {
namespace {

TEST(FormatRankTiming, MetaKeepsTheTimingSpec) {
  TraceHeader h;
  h.nranks = 4;
  h.timing_mode = static_cast<uint8_t>(TimingMode::Hist);
  h.timing_spec = "hist:0.1,8,MPI_Wait=0.5";
  const TraceHeader back = decode_meta(encode_meta(h));
  EXPECT_EQ(back.timing_spec, h.timing_spec);
  EXPECT_EQ(back.timing_mode, h.timing_mode);
  EXPECT_TRUE(is_per_call(back.timing_mode));
}

TEST(FormatRankTiming, NoSpecWritesNoKey) {
  TraceHeader h;
  h.nranks = 1;
  h.timing_mode = static_cast<uint8_t>(TimingMode::Aggregate);
  const std::string without = encode_meta(h);
  h.timing_spec = "x";
  EXPECT_EQ(encode_meta(h).size(), without.size() + 3); // key 7, length 1, "x"
  EXPECT_FALSE(is_per_call(static_cast<uint8_t>(TimingMode::Aggregate)));
  EXPECT_FALSE(is_per_call(9));
}

TEST(FormatRankTiming, ExternalSectionsReadLikeAnyOther) {
  std::string out;
  StringSink sink(out);
  ContainerWriter w(sink);
  w.add_section(static_cast<uint16_t>(SectionType::Meta), kNoRank, kSectionCritical, "meta");
  const std::string a = "rank zero's times", b = "rank one's";
  SectionEntry e;
  e.type = static_cast<uint16_t>(SectionType::RankTiming);
  e.rank = 0;
  e.offset = w.offset();
  e.stored_size = e.raw_size = a.size();
  e.crc = crc32c(a.data(), a.size());
  w.add_external_section(e);
  SectionEntry wrong = e;
  wrong.rank = 1;
  EXPECT_THROW(w.add_external_section(wrong), TraceError); // not where the next one starts
  SectionEntry f = e;
  f.rank = 1;
  f.offset = w.offset();
  f.stored_size = f.raw_size = b.size();
  f.crc = crc32c(b.data(), b.size());
  w.add_external_section(f);
  w.finish();
  // What the ranks write into the gaps the sink left.
  out.replace(e.offset, a.size(), a);
  out.replace(f.offset, b.size(), b);
  const Container c = parse_container(out, "t");
  ASSERT_EQ(c.sections.size(), 3u);
  EXPECT_EQ(c.payload(1), a);
  EXPECT_EQ(c.payload(2), b);
  EXPECT_EQ(c.label(2), "section 2 (RANK_TIMING rank 1)");
}

// A damaged RANK_TIMING section (its CRC right: what the fuzzer makes) reads
// as a trace; reading its times gives one line naming the rank.
TEST(FormatRankTiming, DamagedSectionsGiveOneLine) {
  const std::string good = test::file_bytes(test::fixture_path(6));
  const Container c = parse_container(good, "t");
  for (const size_t cut : {size_t{0}, size_t{1}, size_t{30}, size_t{66}, size_t{70}}) {
    // The same file with rank 1's section cut to `cut` bytes.
    std::string out;
    StringSink sink(out);
    ContainerWriter w(sink);
    w.set_version(c.version);
    for (size_t i = 0; i < c.sections.size(); ++i) {
      const SectionEntry &e = c.sections[i];
      std::string stored(c.bytes.substr(e.offset, e.stored_size));
      uint64_t raw = e.raw_size;
      if (e.type == static_cast<uint16_t>(SectionType::RankTiming) && e.rank == 1) {
        stored.resize(std::min(stored.size(), cut));
        raw = stored.size();
      }
      w.add_encoded_section(e.type, e.rank, e.flags, e.codec, stored, raw);
    }
    w.finish();
    const Trace trace = read_trace_from_memory(out, "t");
    std::vector<int64_t> s, e;
    std::string error;
    EXPECT_TRUE(read_call_ticks(trace, 0, s, e, error)) << error;
    EXPECT_FALSE(read_call_ticks(trace, 1, s, e, error)) << cut;
    EXPECT_EQ(error.rfind("rank 1 timing: ", 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    std::vector<CallTime> times;
    EXPECT_FALSE(read_call_times(trace, 1, times, error));
  }
}

} // namespace
} // namespace pilgrim
