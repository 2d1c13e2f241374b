// StreamWriter (bounded memory, spill file, chunk framing) and
// PayloadReader (framing checks, chunk by chunk decoding).
#include "pilgrim/timing_payload.h"
#include "pilgrim/timing_stream.h"
#include "pilgrim/timing_synthetic.h"
#include "timing_bounds.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <unistd.h>

using namespace pilgrim::timing;
namespace test = pilgrim::timing::test;

namespace {

std::string spill_path(const char *name) {
  return ::testing::TempDir() + "pilgrim_timing_" + name + "_" + std::to_string(getpid());
}

bool exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

std::vector<uint8_t> write_stream(const Spec &spec, const std::vector<double> &bounds,
                                  const TickStream &s, const std::string &path,
                                  bool background = true) {
  StreamWriter w;
  std::string error;
  EXPECT_TRUE(w.open(path, spec, error, background)) << error;
  EXPECT_EQ(w.background(), background);
  for (uint32_t g = 0; g < bounds.size(); ++g)
    w.set_group_bound(g, bounds[g]);
  for (size_t i = 0; i < s.size(); ++i)
    w.add(s.start[i], s.end[i], s.group[i]);
  EXPECT_EQ(w.calls(), s.size());
  EXPECT_TRUE(w.finish(error)) << error;
  std::vector<uint8_t> payload;
  EXPECT_TRUE(w.copy_payload(
      [&](const uint8_t *p, size_t n) {
        payload.insert(payload.end(), p, p + n);
        return true;
      },
      error))
      << error;
  EXPECT_EQ(payload.size(), w.payload_size());
  EXPECT_EQ(w.chunks(), (s.size() + kChunkCalls - 1) / kChunkCalls);
  EXPECT_LT(w.memory_bytes(), size_t{8} << 20);
  EXPECT_TRUE(exists(path));
  w.remove();
  EXPECT_FALSE(exists(path));
  return payload;
}

} // namespace

TEST(TimingStream, WritesAndReadsBackChunkByChunk) {
  for (const char *mode : {"lossless", "cfg:0.1", "hist:0.1,8", "pred:0.1", "pred-clustered:0.1",
                           "zfp:1000", "zfp-clustered:1000"}) {
    const Spec spec = test::spec_of(mode);
    TickStream s;
    ASSERT_TRUE(synthetic_stream("stencil", 3 * kChunkCalls + 1234, 1, s));
    const std::vector<double> bounds = test::group_bounds(spec, 16);
    const std::vector<uint8_t> payload = write_stream(spec, bounds, s, spill_path("rw"));
    std::vector<int64_t> start(s.size()), end(s.size());
    std::string error;
    ASSERT_TRUE(decode_payload(spec, bounds, payload.data(), payload.size(), s.size(),
                               s.group.data(), start.data(), end.data(), error))
        << error;
    EXPECT_TRUE(test::check_bounds(spec, bounds, s, 0, s.size(), start, end, kChunkCalls));
  }
}

// The encoder thread changes where a chunk is encoded, never its bytes: the
// payload is the same as inline, over several chunks, in every mode; and a
// group's bound set while the encoder works on an earlier chunk applies from
// the next chunk handed over, as inline.
TEST(TimingStream, EncoderThreadWritesTheSameBytes) {
  for (const char *mode : {"lossless", "cfg:0.1", "hist:0.1,8", "pred:0.1", "zfp:1000"}) {
    const Spec spec = test::spec_of(mode);
    TickStream s;
    ASSERT_TRUE(synthetic_stream("bimodal", 2 * kChunkCalls + 77, 3, s));
    const std::vector<double> bounds = test::group_bounds(spec, 8);
    EXPECT_EQ(write_stream(spec, bounds, s, spill_path("bg"), true),
              write_stream(spec, bounds, s, spill_path("fg"), false))
        << mode;
    std::vector<uint8_t> payload[2];
    for (int background = 0; background < 2; ++background) {
      StreamWriter w;
      std::string error;
      ASSERT_TRUE(w.open(spill_path("late"), spec, error, background == 1)) << error;
      w.set_group_bound(0, bounds[0]);
      for (size_t i = 0; i < s.size(); ++i) {
        if (i == kChunkCalls + 5) // the first chunk is with the encoder now
          for (uint32_t g = 1; g < bounds.size(); ++g)
            w.set_group_bound(g, bounds[g]);
        w.add(s.start[i], s.end[i], s.group[i] % (i > kChunkCalls ? 8 : 1));
      }
      ASSERT_TRUE(w.finish(error)) << error;
      ASSERT_TRUE(w.copy_payload(
          [&](const uint8_t *p, size_t n) {
            payload[background].insert(payload[background].end(), p, p + n);
            return true;
          },
          error))
          << error;
    }
    EXPECT_EQ(payload[0], payload[1]) << mode;
  }
}

TEST(TimingStream, RemoveOnDestruction) {
  const std::string path = spill_path("dtor");
  {
    StreamWriter w;
    std::string error;
    ASSERT_TRUE(w.open(path, test::spec_of("lossless"), error)) << error;
    w.add(1, 2, 0);
    EXPECT_TRUE(exists(path));
  }
  EXPECT_FALSE(exists(path));
}

TEST(TimingStream, OpenFailsWithOneLine) {
  StreamWriter w;
  std::string error;
  EXPECT_FALSE(w.open("/nonexistent-dir/x/spill", test::spec_of("lossless"), error));
  EXPECT_NE(error.find("cannot create the timing spill file"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST(TimingStream, BadPayloadsGiveOneLineErrors) {
  const Spec spec = test::spec_of("lossless");
  TickStream s;
  ASSERT_TRUE(synthetic_stream("uniform", kChunkCalls + 100, 2, s));
  const std::vector<double> bounds = test::group_bounds(spec, 4);
  const std::vector<uint8_t> payload = write_stream(spec, bounds, s, spill_path("bad"));
  std::vector<int64_t> start(s.size()), end(s.size());
  std::string error;
  // Every truncation point.
  for (size_t cut = 0; cut < payload.size(); cut += 1 + cut / 5) {
    EXPECT_FALSE(decode_payload(spec, bounds, payload.data(), cut, s.size(), s.group.data(),
                                start.data(), end.data(), error))
        << cut;
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  // A wrong call count.
  EXPECT_FALSE(decode_payload(spec, bounds, payload.data(), payload.size(), s.size() - 1,
                              s.group.data(), start.data(), end.data(), error));
  EXPECT_FALSE(decode_payload(spec, bounds, payload.data(), payload.size(), s.size() + 1,
                              s.group.data(), start.data(), end.data(), error));
  EXPECT_NE(error.find("calls"), std::string::npos) << error;
  // Frames: a zero call count, a count above kChunkCalls, a size past the end.
  for (const std::vector<uint8_t> &bad : std::vector<std::vector<uint8_t>>{
           {0x00, 0x01, 0x00}, {0x81, 0x80, 0x04, 0x01, 0x00}, {0x01, 0x7f, 0x00}, {0x80}}) {
    EXPECT_FALSE(decode_payload(spec, bounds, bad.data(), bad.size(), 1, s.group.data(),
                                start.data(), end.data(), error));
    EXPECT_EQ(error.rfind("timing chunk 0 at payload byte 0: ", 0), 0u) << error;
  }
  // Random damage: an error or some times, never a crash.
  std::mt19937_64 rng(3);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint8_t> bad = payload;
    bad[rng() % bad.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (!decode_payload(spec, bounds, bad.data(), bad.size(), s.size(), s.group.data(),
                        start.data(), end.data(), error)) {
      EXPECT_EQ(error.find('\n'), std::string::npos);
    }
  }
}
