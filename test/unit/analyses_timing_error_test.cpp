// The comparison of decoded per-call times with the verification copy
// (analyses/timing_error.h): what the round-trip tests and
// pilgrim-stats --timing both rely on.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "pilgrim/timing_error.h"

namespace pilgrim {
namespace {

timing::Spec spec(timing::Method m, double bound) {
  timing::Spec s;
  s.method = m;
  s.bound = bound;
  return s;
}

TEST(TimingError, LosslessIsExactOrOutside) {
  const std::vector<int64_t> s = {100, 200, 300}, e = {150, 260, 390};
  const std::vector<double> b(3, 0);
  TimingError err;
  std::string why;
  ASSERT_TRUE(compare_times(spec(timing::Method::Lossless, 0), b, s, e, s, e, err, why));
  EXPECT_EQ(err.outside, 0u);
  EXPECT_EQ(err.calls, 3u);
  std::vector<int64_t> e2 = e;
  e2[1] += 1;
  ASSERT_TRUE(compare_times(spec(timing::Method::Lossless, 0), b, s, e2, s, e, err, why));
  EXPECT_EQ(err.outside, 1u);
  EXPECT_EQ(err.first_outside, 1u);
  EXPECT_EQ(err.max_absolute_ticks, 1);
}

TEST(TimingError, RelativeBoundOnDurationAndGap) {
  const std::vector<int64_t> s = {1000, 2000}, e = {1100, 2100};
  const std::vector<double> b(2, 0.1);
  TimingError err;
  std::string why;
  // Durations 100 -> 109: within 10%; 100 -> 115: outside.
  ASSERT_TRUE(compare_times(spec(timing::Method::Hist, 0.1), b, s, {1109, 2109}, s, e, err, why));
  EXPECT_EQ(err.outside, 0u);
  EXPECT_NEAR(err.max_relative, 0.09, 1e-12);
  ASSERT_TRUE(compare_times(spec(timing::Method::Hist, 0.1), b, s, {1115, 2100}, s, e, err, why));
  EXPECT_EQ(err.outside, 1u);
  EXPECT_EQ(err.first_outside, 0u);
  // A start within 10% of its gap from the decoded previous end (2000 -
  // 1100 = 900): 2080 is, 2095 is not.
  ASSERT_TRUE(compare_times(spec(timing::Method::Hist, 0.1), b, {1000, 2080}, {1100, 2180}, s, e,
                            err, why));
  EXPECT_EQ(err.outside, 0u);
  ASSERT_TRUE(compare_times(spec(timing::Method::Hist, 0.1), b, {1000, 2095}, {1100, 2195}, s, e,
                            err, why));
  EXPECT_EQ(err.outside, 1u);
  EXPECT_EQ(err.first_outside, 1u);
}

TEST(TimingError, AbsoluteBoundInTicks) {
  const std::vector<int64_t> s = {1000, 2000}, e = {1100, 2100};
  const std::vector<double> b(2, 5);
  TimingError err;
  std::string why;
  ASSERT_TRUE(
      compare_times(spec(timing::Method::Zfp, 5), b, {1005, 1995}, {1100, 2105}, s, e, err, why));
  EXPECT_EQ(err.outside, 0u);
  ASSERT_TRUE(
      compare_times(spec(timing::Method::Zfp, 5), b, {1006, 2000}, {1100, 2100}, s, e, err, why));
  EXPECT_EQ(err.outside, 1u);
}

TEST(TimingError, CountsMustAgree) {
  TimingError err;
  std::string why;
  EXPECT_FALSE(compare_times(spec(timing::Method::Lossless, 0), {0}, {1}, {2}, {}, {}, err, why));
  EXPECT_NE(why.find("verification copy"), std::string::npos);
}

TEST(TimingError, ReadsTheVerificationCopy) {
  const std::string path = ::testing::TempDir() + "/t.verify.0.times";
  std::FILE *f = std::fopen(path.c_str(), "wb");
  ASSERT_TRUE(f);
  const unsigned char call[16] = {1,    0,    0,    0,    0,    0,    0,    0,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f};
  std::fwrite(call, 1, sizeof call, f);
  std::fclose(f);
  std::vector<int64_t> s, e;
  std::string why;
  ASSERT_TRUE(read_verify_times(path, s, e, why)) << why;
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0], 1);
  EXPECT_EQ(e[0], INT64_MAX);
  f = std::fopen(path.c_str(), "ab");
  std::fwrite(call, 1, 3, f);
  std::fclose(f);
  EXPECT_FALSE(read_verify_times(path, s, e, why));
  EXPECT_NE(why.find("truncated (19 bytes"), std::string::npos) << why;
  std::remove(path.c_str());
}

} // namespace
} // namespace pilgrim
