// The TIMING section: quantization error bound, every timing kind, malformed
// payloads, and the property it exists for: a trace's size does not depend
// on its timing values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "../fuzz/sample_trace.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/timing_codec.h"
#include "pilgrim/file_layout.h"
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
  for (uint32_t c = 0; c <= 65535; c += 7)   // idempotent
    ASSERT_EQ(quantize_seconds(dequantize_seconds(static_cast<uint16_t>(c))), c);
}

RankTrace four_kinds() {
  RankTrace rt = sample::ring_rank(0);
  rt.cst.resize(4, rt.cst[0]);
  rt.cst[0].duration = TimingStats{}; // kind 0
  rt.cst[1].duration.n = rt.cst[1].count; // kind 1
  rt.cst[2].interval.n = rt.cst[2].count - 1; // kind 2
  rt.cst[3].interval.n = 3; // kind 3
  rt.cst[3].count = 1000;
  return rt;
}

TEST(TimingCodec, EveryKindRoundTrips) {
  RankTrace rt = four_kinds();
  RankTrace back = rt;
  for (CstEntry &e : back.cst)
    e.duration = e.interval = TimingStats{};
  apply_timing(back.cst, serialize_timing(rt.cst));
  for (size_t i = 0; i < rt.cst.size(); ++i) {
    for (auto pick : {&CstEntry::duration, &CstEntry::interval}) {
      const TimingStats want = quantize_timing(rt.cst[i].*pick), got = back.cst[i].*pick;
      EXPECT_EQ(got.n, want.n) << i;
      EXPECT_EQ(got.mean, want.mean) << i;
      EXPECT_EQ(got.m2, want.m2) << i;
      EXPECT_EQ(got.min, want.min) << i;
      EXPECT_EQ(got.max, want.max) << i;
    }
  }
}

std::string error_of(RankTrace rt, std::string_view payload) {
  try {
    apply_timing(rt.cst, payload);
  } catch (const TraceError &e) {
    return e.what();
  }
  return "";
}

TEST(TimingCodec, MalformedPayloadsAreErrors) {
  const RankTrace rt = four_kinds();
  const std::string good = serialize_timing(rt.cst);
  ASSERT_EQ(error_of(rt, good), "");
  RankTrace fewer = rt;
  fewer.cst.pop_back();
  EXPECT_NE(error_of(fewer, good).find("timing for 4 CST entries, the CST has 3"),
            std::string::npos);
  for (size_t n = 0; n < good.size(); ++n) // every truncation
    EXPECT_NE(error_of(rt, good.substr(0, n)), "") << n;
  EXPECT_NE(error_of(rt, good + "x").find("1 trailing bytes"), std::string::npos);
  std::string bad_kind = good;
  bad_kind[1] = 9;
  EXPECT_NE(error_of(rt, bad_kind).find("unknown timing kind 9"), std::string::npos);
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
