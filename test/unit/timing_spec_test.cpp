// PILGRIM_TIMING parsing (timing/include/pilgrim/timing_spec.h).
#include "pilgrim/timing_spec.h"

#include <gtest/gtest.h>

using namespace pilgrim::timing;

namespace {

Spec parse_ok(const std::string &text) {
  Spec s;
  std::string error;
  EXPECT_TRUE(parse_spec(text, s, error)) << text << ": " << error;
  return s;
}

std::string parse_error(const std::string &text) {
  Spec s;
  std::string error;
  EXPECT_FALSE(parse_spec(text, s, error)) << text;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  return error;
}

} // namespace

TEST(TimingSpec, ModesWithoutValue) {
  EXPECT_EQ(parse_ok("aggregate").method, Method::Aggregate);
  EXPECT_EQ(parse_ok("none").method, Method::None);
  const Spec l = parse_ok("lossless");
  EXPECT_EQ(l.method, Method::Lossless);
  EXPECT_TRUE(l.per_call());
  EXPECT_FALSE(l.lossy());
}

TEST(TimingSpec, ModesWithValue) {
  const Spec h = parse_ok("hist:0.1,8");
  EXPECT_EQ(h.method, Method::Hist);
  EXPECT_DOUBLE_EQ(h.bound, 0.1);
  EXPECT_EQ(h.hist_bits, 8);
  EXPECT_EQ(parse_ok("cfg:0.05").method, Method::Cfg);
  EXPECT_EQ(parse_ok("pred:0.1").method, Method::Pred);
  EXPECT_EQ(parse_ok("pred-clustered:0.1").method, Method::PredClustered);
  const Spec z = parse_ok("zfp:1e-6");
  EXPECT_EQ(z.method, Method::Zfp);
  EXPECT_TRUE(z.absolute());
  EXPECT_DOUBLE_EQ(z.bound, 1e-6);
  EXPECT_EQ(parse_ok("zfp-clustered:2.5").method, Method::ZfpClustered);
}

TEST(TimingSpec, PerFunctionBounds) {
  const Spec s = parse_ok("hist:0.1,8,MPI_Wait=0.5,MPI_Barrier=0.3");
  ASSERT_EQ(s.per_function.size(), 2u);
  EXPECT_DOUBLE_EQ(s.bound_of("MPI_Wait"), 0.5);
  EXPECT_DOUBLE_EQ(s.bound_of("MPI_Barrier"), 0.3);
  EXPECT_DOUBLE_EQ(s.bound_of("MPI_Send"), 0.1);
  const Spec p = parse_ok("pred:0.01,MPI_Recv=0.2");
  EXPECT_DOUBLE_EQ(p.bound_of("MPI_Recv"), 0.2);
}

TEST(TimingSpec, CanonicalTextRoundTrips) {
  for (const char *t :
       {"aggregate", "none", "lossless", "cfg:0.1", "hist:0.1,8", "pred:0.001",
        "pred-clustered:0.25", "zfp:1e-05", "zfp-clustered:0.001", "hist:0.1,8,MPI_Wait=0.5"}) {
    const Spec s = parse_ok(t);
    EXPECT_EQ(spec_text(s), t);
    const Spec again = parse_ok(spec_text(s));
    EXPECT_EQ(again.method, s.method);
    EXPECT_EQ(again.bound, s.bound);
    EXPECT_EQ(again.hist_bits, s.hist_bits);
    EXPECT_EQ(again.per_function.size(), s.per_function.size());
  }
  Spec odd = parse_ok("pred:0.1");
  odd.bound = 0.1 + 1e-17 * 3;
  EXPECT_EQ(parse_ok(spec_text(odd)).bound, odd.bound);
}

TEST(TimingSpec, WrongValuesGiveOneLine) {
  const std::string e = parse_error("hist:2");
  EXPECT_EQ(e.rfind("pilgrim: invalid PILGRIM_TIMING='hist:2' (", 0), 0u) << e;
  EXPECT_NE(e.find("0 < EPS < 1"), std::string::npos) << e;
  for (const char *t : {"",
                        "fast",
                        "hist",
                        "hist:0.1",
                        "hist:0.1,0",
                        "hist:0.1,17",
                        "hist:0.1,8.5",
                        "cfg",
                        "cfg:",
                        "cfg:0",
                        "cfg:1",
                        "cfg:-0.1",
                        "cfg:nan",
                        "cfg:inf",
                        "cfg:0.1x",
                        "pred:0.1,",
                        "pred:0.1,MPI_Wait",
                        "pred:0.1,MPI_Wait=2",
                        "pred:0.1,1x=0.2",
                        "pred:0.1,MPI_Wait=0.2,MPI_Wait=0.3",
                        "zfp:0",
                        "zfp:-1",
                        "lossless:0.1",
                        "lossless,MPI_Wait=0.1",
                        "aggregate:1",
                        "none,",
                        "Lossless",
                        " lossless"})
    parse_error(t);
}

TEST(TimingSpec, MethodNames) {
  EXPECT_STREQ(method_name(Method::Hist), "hist");
  EXPECT_STREQ(method_name(Method::PredClustered), "pred-clustered");
  EXPECT_STREQ(method_name(static_cast<Method>(200)), "unknown");
}
