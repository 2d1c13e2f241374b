// The clock block (docs/FORMAT.md, "Clock block"): its bytes, its round trip,
// and one clear error for every truncation or invalid field.
#include "pilgrim/rank_clock.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace pilgrim;

namespace {

RankClock sample() {
  RankClock c;
  c.source = static_cast<uint8_t>(ClockSource::Tsc);
  c.ns_per_tick = 0.4;
  c.resolution_ns = 8.4;
  c.init = {1000000000000, -5, 1234};
  c.finalize = {2000000000000, 999999999999, 77};
  return c;
}

} // namespace

TEST(RankClock, BytesAreTheDocumentedOnes) {
  RankClock c;
  c.source = 0;
  c.ns_per_tick = 1.0;
  c.resolution_ns = 1.0;
  c.init = {0x0102030405060708, 0x0102030405060708, 0};
  c.finalize = {}; // absent
  std::vector<uint8_t> b;
  encode_rank_clock(c, b);
  ASSERT_EQ(b.size(), kRankClockBytes);
  const uint8_t expect[] = {
      0x00,                                           // source: CLOCK_MONOTONIC
      0,    0,    0,    0,    0,    0,    0xf0, 0x3f, // ns_per_tick 1.0
      0,    0,    0,    0,    0,    0,    0xf0, 0x3f, // resolution_ns 1.0
      8,    7,    6,    5,    4,    3,    2,    1,
      8,    7,    6,    5,    4,    3,    2,    1, // init tick, rank0_tick
      0,    0,    0,    0,    0,    0,    0,    0, // init rtt 0 (rank 0)
      0,    0,    0,    0,    0,    0,    0,    0,
      0,    0,    0,    0,    0,    0,    0,    0,    // finalize ticks
      0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, // finalize rtt -1: absent
  };
  ASSERT_EQ(sizeof expect, kRankClockBytes);
  EXPECT_EQ(0, std::memcmp(b.data(), expect, kRankClockBytes));
}

TEST(RankClock, RoundTripsAndAdvances) {
  std::vector<uint8_t> b = {0xaa};
  encode_rank_clock(sample(), b);
  b.push_back(0xbb);
  const uint8_t *p = b.data() + 1, *end = b.data() + b.size();
  RankClock c;
  std::string err;
  ASSERT_TRUE(decode_rank_clock(p, end, c, err)) << err;
  EXPECT_EQ(p, end - 1);
  const RankClock s = sample();
  EXPECT_EQ(c.source, s.source);
  EXPECT_EQ(c.ns_per_tick, s.ns_per_tick);
  EXPECT_EQ(c.resolution_ns, s.resolution_ns);
  EXPECT_EQ(c.init.tick, s.init.tick);
  EXPECT_EQ(c.init.rank0_tick, s.init.rank0_tick);
  EXPECT_EQ(c.init.rtt_rank0_ticks, s.init.rtt_rank0_ticks);
  EXPECT_EQ(c.finalize.tick, s.finalize.tick);
  EXPECT_EQ(c.finalize.rank0_tick, s.finalize.rank0_tick);
  EXPECT_EQ(c.finalize.rtt_rank0_ticks, s.finalize.rtt_rank0_ticks);
}

TEST(RankClock, EveryTruncationIsOneError) {
  std::vector<uint8_t> b;
  encode_rank_clock(sample(), b);
  for (size_t n = 0; n < b.size(); ++n) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + static_cast<long>(n));
    const uint8_t *p = cut.data(), *start = p;
    RankClock c;
    std::string err;
    EXPECT_FALSE(decode_rank_clock(p, cut.data() + cut.size(), c, err));
    EXPECT_EQ(p, start);
    EXPECT_EQ(err, "clock block truncated: " + std::to_string(n) + " of 65 bytes");
  }
}

TEST(RankClock, InvalidFieldsAreRejected) {
  auto rejects = [](size_t at, std::vector<uint8_t> bytes, const std::string &want) {
    std::vector<uint8_t> b;
    encode_rank_clock(sample(), b);
    std::copy(bytes.begin(), bytes.end(), b.begin() + static_cast<long>(at));
    const uint8_t *p = b.data();
    RankClock c;
    std::string err;
    EXPECT_FALSE(decode_rank_clock(p, b.data() + b.size(), c, err));
    EXPECT_EQ(err, want);
    EXPECT_EQ(err.find('\n'), std::string::npos);
  };
  rejects(0, {2}, "clock block: unknown clock source 2");
  rejects(1, {0, 0, 0, 0, 0, 0, 0, 0},
          "clock block: nanoseconds per tick is not a positive number");
  rejects(1, {0, 0, 0, 0, 0, 0, 0xf8, 0x7f},
          "clock block: nanoseconds per tick is not a positive number"); // NaN
  rejects(9, {0, 0, 0, 0, 0, 0, 0xf0, 0xbf},
          "clock block: resolution is not a non-negative number");
  rejects(33, {0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
          "clock block: MPI_Init round trip -2 is negative");
  rejects(57, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff},
          "clock block: MPI_Finalize sync is absent but has ticks");
}

TEST(RankClock, AnyBytesDecodeOrFailCleanly) {
  // Every single-byte corruption of a valid block: decoded or one error.
  std::vector<uint8_t> good;
  encode_rank_clock(sample(), good);
  for (size_t i = 0; i < good.size(); ++i)
    for (int v : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::vector<uint8_t> b = good;
      b[i] = static_cast<uint8_t>(v);
      const uint8_t *p = b.data();
      RankClock c;
      std::string err;
      if (!decode_rank_clock(p, b.data() + b.size(), c, err)) {
        EXPECT_FALSE(err.empty());
      }
    }
}
