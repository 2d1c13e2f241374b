// The TIMING section: quantization error bound, every timing kind, malformed
// payloads, and the property it exists for: a trace's size does not depend
// on its timing values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "../fuzz/sample_trace.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/timing_codec.h"
#include "pilgrim/trace_container.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/trace_writer.h"

namespace pilgrim {
namespace {

std::string read_file_bytes(const char *path) {
  std::FILE *f = std::fopen(path, "rb");
  std::string out;
  if (!f)
    return out;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    out.append(buf, n);
  std::fclose(f);
  return out;
}

TEST(TimingCodec, QuantizationErrorIsBounded) {
  const double bound = std::exp2(1.0 / 2048) - 1; // half a code step
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> octaves(0.0, 50.0); // 1 ns .. ~13 days
  for (int i = 0; i < 200000; ++i) {
    const double s = std::exp2(octaves(rng)) * 1e-9;
    const double back = dequantize_seconds(quantize_seconds(s));
    ASSERT_LE(std::fabs(back - s) / s, bound * (1 + 1e-9)) << s;
  }
  EXPECT_EQ(quantize_seconds(0.0), 0);
  EXPECT_EQ(quantize_seconds(-1.0), 0);
  EXPECT_EQ(quantize_seconds(std::nan("")), 0);
  EXPECT_EQ(quantize_seconds(0.4e-9), 0);
  EXPECT_EQ(dequantize_seconds(quantize_seconds(0.7e-9)), 1e-9);
  EXPECT_EQ(quantize_seconds(1e30), 65535); // clamped, not wrapped
  for (uint32_t c = 0; c <= 65535; c += 7)  // idempotent
    ASSERT_EQ(quantize_seconds(dequantize_seconds(static_cast<uint16_t>(c))), c);
}

// Kinds 0 to 3 and, from version 9, kind 5 (one sample: an entry made once).
RankTrace every_kind() {
  RankTrace rt = sample::ring_rank(0);
  rt.cst.resize(5, rt.cst[0]);
  rt.cst[0].duration = TimingStats{};         // kind 0
  rt.cst[1].duration.n = rt.cst[1].count;     // kind 1
  rt.cst[2].interval.n = rt.cst[2].count - 1; // kind 2
  rt.cst[3].interval.n = 3;                   // kind 3
  rt.cst[3].count = 1000;
  rt.cst[4].count = 1; // kind 5: one duration, no interval
  rt.cst[4].duration = TimingStats{1, 3e-6, 0, 3e-6, 3e-6};
  rt.cst[4].interval = TimingStats{};
  for (CstEntry &e : rt.cst) // one sample: min, max and mean are that sample
    for (TimingStats *t : {&e.duration, &e.interval})
      if (t->n == 1)
        t->min = t->max = t->mean;
  return rt;
}

void expect_quantized(const RankTrace &want_of, const RankTrace &back) {
  for (size_t i = 0; i < want_of.cst.size(); ++i) {
    for (auto pick : {&CstEntry::duration, &CstEntry::interval}) {
      const TimingStats want = quantize_timing(want_of.cst[i].*pick), got = back.cst[i].*pick;
      EXPECT_EQ(got.n, want.n) << i;
      EXPECT_EQ(got.mean, want.mean) << i;
      EXPECT_EQ(got.m2, want.m2) << i;
      EXPECT_EQ(got.min, want.min) << i;
      EXPECT_EQ(got.max, want.max) << i;
    }
  }
}

TEST(TimingCodec, EveryKindRoundTrips) {
  const RankTrace rt = every_kind();
  for (uint16_t version : {uint16_t{8}, kFormatVersion}) {
    RankTrace back = rt;
    for (CstEntry &e : back.cst)
      e.duration = e.interval = TimingStats{};
    apply_timing(back.cst, serialize_timing(rt.cst, version), version);
    expect_quantized(rt, back);
  }
}

// Kind 5 stores a one-sample timing in 3 bytes instead of 9, from version 9
// on; version 8's layout keeps kind 1.
TEST(TimingCodec, OneSampleIsKind5FromVersion9) {
  RankTrace one = sample::ring_rank(0);
  one.cst.resize(1);
  one.cst[0].count = 1;
  one.cst[0].duration = TimingStats{1, 2e-6, 0, 2e-6, 2e-6};
  one.cst[0].interval = TimingStats{};
  const std::string v9 = serialize_timing(one.cst, kFirstSingleSampleTimingVersion);
  const std::string v8 = serialize_timing(one.cst, kFirstSingleSampleTimingVersion - 1);
  const uint16_t code = quantize_seconds(2e-6);
  EXPECT_EQ(v9, std::string("\x01\x05", 2) + static_cast<char>(code & 0xff) +
                    static_cast<char>(code >> 8) + std::string(1, '\0'));
  EXPECT_EQ(v8.size(), 1u + 9u + 1u);
  EXPECT_EQ(static_cast<uint8_t>(v8[1]), 1);
}

std::string error_of(RankTrace rt, std::string_view payload, uint16_t version = kFormatVersion) {
  try {
    apply_timing(rt.cst, payload, version);
  } catch (const TraceError &e) {
    return e.what();
  }
  return "";
}

TEST(TimingCodec, MalformedPayloadsAreErrors) {
  const RankTrace rt = every_kind();
  const std::string good = serialize_timing(rt.cst, kFormatVersion);
  ASSERT_EQ(error_of(rt, good), "");
  RankTrace fewer = rt;
  fewer.cst.pop_back();
  EXPECT_NE(error_of(fewer, good).find("timing for 5 CST entries, the CST has 4"),
            std::string::npos);
  for (size_t n = 0; n < good.size(); ++n) // every truncation
    EXPECT_NE(error_of(rt, good.substr(0, n)), "") << n;
  EXPECT_NE(error_of(rt, good + "x").find("1 trailing bytes"), std::string::npos);
  std::string bad_kind = good;
  bad_kind[1] = 9;
  EXPECT_NE(error_of(rt, bad_kind).find("unknown timing kind 9"), std::string::npos);
  // Kind 5 is not a kind of version 8, and needs a call to belong to.
  EXPECT_NE(error_of(rt, good, 8).find("unknown timing kind 5 (format version 8 has kinds 0 to 4)"),
            std::string::npos);
  RankTrace uncalled = rt;
  uncalled.cst[4].count = 0;
  EXPECT_NE(error_of(uncalled, good).find("timing kind 5 (one sample) for an entry with count 0"),
            std::string::npos);
}

// Same calls, different speeds: the file must have the same size.
TEST(TimingCodec, TraceSizeDoesNotDependOnTimingValues) {
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> secs(1e-7, 1e-2);
  size_t first = 0;
  for (int run = 0; run < 20; ++run) {
    std::vector<std::string> ranks;
    for (int r = 0; r < 4; ++r) {
      RankTrace rt = sample::ring_rank(r);
      for (CstEntry &e : rt.cst)
        for (TimingStats *t : {&e.duration, &e.interval})
          if (t->n) {
            t->min = secs(rng);
            t->max = t->min * 3;
            t->mean = t->min * 2;
            t->m2 = t->n > 1 ? t->mean * t->mean * static_cast<double>(t->n - 1) / 9 : 0;
          }
      ranks.push_back(serialize_rank(rt));
    }
    const std::string bytes =
        write_trace_to_memory(sample::ring_header(4), sample::ring_functions(), ranks);
    if (run == 0)
      first = bytes.size();
    ASSERT_EQ(bytes.size(), first) << "run " << run;
    const Trace t = read_trace_from_memory(bytes, "t");
    ASSERT_EQ(t.nranks(), 4u);
  }
}

// Files written before the TIMING section existed keep their timing inside
// the RANK section (test/fuzz/corpus/file-ring-3, after the fuzz input's
// selector byte, is one); they still read.
TEST(TimingCodec, TimingInsideTheRankSectionStillReads) {
  const std::string input = read_file_bytes(PILGRIM_SOURCE_DIR "/test/fuzz/corpus/file-ring-3");
  ASSERT_GT(input.size(), 1u);
  const std::string file = input.substr(1);
  const Trace t = read_trace_from_memory(file, "file-ring-3");
  const Container c = parse_container(file, "file-ring-3");
  for (const SectionEntry &e : c.sections)
    ASSERT_NE(e.type, static_cast<uint16_t>(SectionType::Timing)) << "not an old-layout file";
  ASSERT_EQ(t.nranks(), 3u);
  const RankTrace want = sample::ring_rank(2);
  ASSERT_EQ(t.rank_trace(2).cst.size(), want.cst.size());
  EXPECT_EQ(t.rank_trace(2).cst[0].duration.n, want.cst[0].duration.n);
  EXPECT_EQ(t.rank_trace(2).cst[0].duration.mean, want.cst[0].duration.mean); // not quantized
}

} // namespace
} // namespace pilgrim
