// The per-call timing chunk codecs (timing/include/pilgrim/timing_chunk.h):
// every mode on every synthetic input kind, each decoded value checked
// against the mode's bound; random invariants; corrupt and truncated chunks.
#include "pilgrim/timing_chunk.h"
#include "pilgrim/timing_synthetic.h"
#include "timing_bounds.h"

#include <gtest/gtest.h>

#include <random>

using namespace pilgrim::timing;
using pilgrim::timing::test::check_bounds;
using pilgrim::timing::test::spec_of;
namespace test = pilgrim::timing::test;

namespace {

// "@7": the layouts of format version 7, which readers still decode (zfp's
// 1-D field before kFirstZfp3dVersion).
const char *const kModes[] = {"lossless",
                              "cfg:0.1",
                              "hist:0.1,8",
                              "hist:0.05,3",
                              "pred:0.1",
                              "pred:0.01",
                              "pred-clustered:0.1",
                              "zfp:1000",
                              "zfp:0.5",
                              "zfp-clustered:1000",
                              "zfp:1000@7",
                              "zfp:0.5@7",
                              "zfp-clustered:1000@7"};

struct Decoded {
  std::vector<int64_t> start, end;
};

Decoded round_trip(const Spec &spec, const std::vector<double> &bounds, const TickStream &s,
                   size_t from, size_t n, std::vector<uint8_t> *bytes_out = nullptr) {
  std::vector<uint8_t> bytes;
  const ChunkView view{n, s.start.data() + from, s.end.data() + from, s.group.data() + from};
  encode_chunk(spec, bounds, view, bytes);
  Decoded d;
  d.start.assign(n, -1);
  d.end.assign(n, -1);
  std::string error;
  EXPECT_TRUE(decode_chunk(spec, bounds, bytes.data(), bytes.size(), n, s.group.data() + from,
                           d.start.data(), d.end.data(), error))
      << error;
  if (bytes_out)
    *bytes_out = bytes;
  return d;
}

} // namespace

class TimingCodec : public ::testing::TestWithParam<const char *> {};

TEST_P(TimingCodec, EveryKindWithinBound) {
  const Spec spec = spec_of(GetParam());
  for (const std::string &kind : synthetic_kinds()) {
    TickStream s;
    ASSERT_TRUE(synthetic_stream(kind, 20000, 7, s));
    const std::vector<double> bounds = test::group_bounds(spec, 16);
    const Decoded d = round_trip(spec, bounds, s, 0, s.size());
    EXPECT_TRUE(check_bounds(spec, bounds, s, 0, s.size(), d.start, d.end)) << kind;
  }
}

TEST_P(TimingCodec, SmallChunks) {
  const Spec spec = spec_of(GetParam());
  TickStream s;
  ASSERT_TRUE(synthetic_stream("stencil", 600, 3, s));
  const std::vector<double> bounds = test::group_bounds(spec, 16);
  for (size_t n :
       {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{5}, size_t{101}, size_t{257}}) {
    const Decoded d = round_trip(spec, bounds, s, 17, n);
    EXPECT_TRUE(check_bounds(spec, bounds, s, 17, n, d.start, d.end)) << n;
  }
}

TEST_P(TimingCodec, RandomInputs) {
  const Spec spec = spec_of(GetParam());
  std::mt19937_64 rng(11);
  for (int round = 0; round < 40; ++round) {
    const size_t n = 1 + rng() % 3000;
    TickStream s;
    s.start.resize(n);
    s.end.resize(n);
    s.group.resize(n);
    int64_t t = static_cast<int64_t>(rng() % (int64_t{1} << 50)) - (int64_t{1} << 49);
    const int scale = static_cast<int>(rng() % 40);
    for (size_t i = 0; i < n; ++i) {
      const int64_t range = int64_t{1} << (rng() % (scale + 1));
      t += static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * range + 1)) - range / 4;
      s.start[i] = t;
      t += static_cast<int64_t>(rng() % static_cast<uint64_t>(range + 1)) -
           (rng() % 16 == 0 ? range / 2 : 0);
      s.end[i] = t;
      s.group[i] = static_cast<uint32_t>(rng() % 7);
    }
    const std::vector<double> bounds = test::group_bounds(spec, 7);
    const Decoded d = round_trip(spec, bounds, s, 0, n);
    ASSERT_TRUE(check_bounds(spec, bounds, s, 0, n, d.start, d.end)) << round;
  }
}

TEST_P(TimingCodec, CorruptAndTruncatedChunksGiveOneLineErrors) {
  const Spec spec = spec_of(GetParam());
  TickStream s;
  ASSERT_TRUE(synthetic_stream("stencil", 3000, 5, s));
  const std::vector<double> bounds = test::group_bounds(spec, 16);
  std::vector<uint8_t> bytes;
  round_trip(spec, bounds, s, 0, s.size(), &bytes);
  std::vector<int64_t> start(s.size()), end(s.size());
  std::string error;
  for (size_t cut = 0; cut < bytes.size(); cut += 1 + cut / 3) {
    error.clear();
    EXPECT_FALSE(decode_chunk(spec, bounds, bytes.data(), cut, s.size(), s.group.data(),
                              start.data(), end.data(), error))
        << cut;
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  std::mt19937_64 rng(5);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint8_t> bad = bytes;
    for (int k = 0; k < 1 + round % 4; ++k)
      bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    error.clear();
    // Either an error or some decoded times; never a crash or a read
    // outside the bytes (the ASan build checks).
    if (!decode_chunk(spec, bounds, bad.data(), bad.size(), s.size(), s.group.data(), start.data(),
                      end.data(), error)) {
      EXPECT_EQ(error.find('\n'), std::string::npos);
    }
  }
  // Trailing bytes.
  bytes.push_back(0);
  EXPECT_FALSE(decode_chunk(spec, bounds, bytes.data(), bytes.size(), s.size(), s.group.data(),
                            start.data(), end.data(), error));
}

// No drift: 10^6 calls, chunk after chunk; the last calls' absolute times
// are still within the bound of their own gap and duration.
TEST_P(TimingCodec, NoDriftOverAMillionCalls) {
  const Spec spec = spec_of(GetParam());
  TickStream s;
  ASSERT_TRUE(synthetic_stream("stencil", 1'000'000, 9, s));
  const std::vector<double> bounds = test::group_bounds(spec, 16);
  std::vector<int64_t> start(s.size()), end(s.size());
  for (size_t from = 0; from < s.size(); from += kChunkCalls) {
    const size_t n = std::min<size_t>(kChunkCalls, s.size() - from);
    const Decoded d = round_trip(spec, bounds, s, from, n);
    std::copy(d.start.begin(), d.start.end(), start.begin() + from);
    std::copy(d.end.begin(), d.end.end(), end.begin() + from);
  }
  EXPECT_TRUE(check_bounds(spec, bounds, s, 0, s.size(), start, end, kChunkCalls));
  // The error of the last 10^4 calls is that of the first 10^4: it does not
  // grow with the number of calls.
  const size_t w = 10000, tail = s.size() - w;
  const double head_err =
      test::max_abs_error(s, 0, std::vector<int64_t>(start.begin(), start.begin() + w),
                          std::vector<int64_t>(end.begin(), end.begin() + w));
  const double tail_err =
      test::max_abs_error(s, tail, std::vector<int64_t>(start.begin() + tail, start.end()),
                          std::vector<int64_t>(end.begin() + tail, end.end()));
  EXPECT_LE(tail_err, 2 * head_err + 1) << "head " << head_err << " tail " << tail_err;
}

INSTANTIATE_TEST_SUITE_P(Modes, TimingCodec, ::testing::ValuesIn(kModes),
                         [](const ::testing::TestParamInfo<const char *> &info) {
                           std::string name;
                           for (const char *p = info.param; *p; ++p)
                             name += std::isalnum(static_cast<unsigned char>(*p)) ? *p : '_';
                           return name;
                         });

// Format version 8's zfp field (3-D, 64 consecutive values per block) takes
// fewer bytes than version 7's 1-D field on the stencil, and each layout
// decodes only under its own version's rule.
TEST(TimingCodecZfpLayout, Version8FieldIsSmallerAndGated) {
  TickStream s;
  ASSERT_TRUE(synthetic_stream("stencil", 20000, 7, s));
  for (const char *mode : {"zfp:1000", "zfp-clustered:1000"}) {
    const Spec v8 = spec_of(mode), v7 = spec_of(std::string(mode) + "@7");
    const std::vector<double> bounds = test::group_bounds(v8, 16);
    std::vector<uint8_t> bytes7, bytes8;
    round_trip(v7, bounds, s, 0, s.size(), &bytes7);
    const Decoded d8 = round_trip(v8, bounds, s, 0, s.size(), &bytes8);
    EXPECT_TRUE(check_bounds(v8, bounds, s, 0, s.size(), d8.start, d8.end)) << mode;
    EXPECT_LT(bytes8.size(), bytes7.size()) << mode;
    // Read under the other version's rule, a chunk fails or decodes to other times.
    std::vector<int64_t> start(s.size()), end(s.size());
    std::string error;
    if (decode_chunk(v7, bounds, bytes8.data(), bytes8.size(), s.size(), s.group.data(),
                     start.data(), end.data(), error)) {
      EXPECT_NE(start, d8.start) << mode;
    }
  }
}

// The clustered codecs order calls by group; ids need not be dense.
TEST(TimingCodecClustered, SparseGroupIds) {
  TickStream s;
  ASSERT_TRUE(synthetic_stream("bimodal", 5000, 3, s));
  for (size_t i = 0; i < s.size(); ++i)
    s.group[i] = (s.group[i] % 3) * 100'000'000u + (i % 2);
  for (const char *mode : {"pred-clustered:0.1", "zfp-clustered:1000"}) {
    const Spec spec = spec_of(mode);
    const std::vector<double> bounds = test::group_bounds(spec, 2);
    const Decoded d = round_trip(spec, bounds, s, 0, s.size());
    EXPECT_TRUE(check_bounds(spec, bounds, s, 0, s.size(), d.start, d.end)) << mode;
  }
}
