// MPI-IO offsets that follow the rank (docs/FORMAT.md §8.3, format version
// 7): the writer's fit (sig::offset_fit), the decoder (svarint(stride)
// svarint(base) where the parameter has kFlagRankStride), the model's value
// at a rank (offset_at_rank) and what a reader prints, on random input.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>

#include "../fuzz/sample_trace.h"
#include "pilgrim/call_formatter.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/decoded_call.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {
namespace {

using sample::SigBuilder;

// MPI_File_write_at as a version-7 writer describes it.
const FunctionInfo kWriteAt{16, "MPI_File_write_at", 6, sample::kRankStrideWriteAtParams};

const FunctionInfo *lookup(uint16_t id) { return id == 16 ? &kWriteAt : sample::lookup(id); }

std::string write_at(int64_t stride, int64_t base) {
  return SigBuilder(16)
      .v(sig::handle_user(0))
      .i(stride)
      .i(base)
      .v(sig::buffer_id(1))
      .i(16)
      .v(sample::kInt)
      .v(sig::kStatusCountOnly)
      .i(64)
      .done();
}

std::string text(const std::string &bytes, int64_t world_rank) {
  const CreationTracker state(world_rank, kFormatVersion, {}, {});
  return format_call(decode_signature(lookup, bytes), state.context());
}

__int128 at(const sig::OffsetCode &c, int64_t rank) {
  return static_cast<__int128>(c.base) + static_cast<__int128>(c.stride) * rank;
}

TEST(RankOffsets, FitIsExactOnAnyValues) {
  std::mt19937_64 rng(7);
  const int64_t big = std::numeric_limits<int64_t>::max();
  std::uniform_int_distribution<int64_t> any(std::numeric_limits<int64_t>::min(), big);
  std::uniform_int_distribution<int64_t> small(-(int64_t{1} << 40), int64_t{1} << 40);
  std::uniform_int_distribution<int64_t> rank(0, 1 << 20);
  for (int i = 0; i < 200000; ++i) {
    const bool wide = i % 2;
    const int64_t v = wide ? any(rng) : small(rng), u = wide ? any(rng) : small(rng);
    const int64_t r = rank(rng), n = r == 0 ? 1 : r - 1;
    const sig::OffsetCode c = sig::offset_fit(v, r, u, n);
    ASSERT_EQ(at(c, r), v) << v << " " << r << " " << u; // base + stride x rank is the value
  }
}

TEST(RankOffsets, AffineValuesFitTheSameOnEveryRank) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<int64_t> coef(-(int64_t{1} << 30), int64_t{1} << 30);
  for (int i = 0; i < 2000; ++i) {
    const int64_t a = coef(rng), b = i % 5 == 0 ? 0 : coef(rng); // constants too
    const int64_t size = 2 + i % 64;
    for (int64_t r = 0; r < size; ++r) {
      const int64_t n = r == 0 ? 1 : r - 1;
      const sig::OffsetCode c = sig::offset_fit(a + b * r, r, a + b * n, n);
      ASSERT_EQ(c, (sig::OffsetCode{b, a})) << a << " + " << b << " x " << r;
    }
  }
}

TEST(RankOffsets, NoFitWhereItWouldOverflowOrTheRanksAreNotNeighbors) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  const int64_t min = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(sig::offset_fit(max, 1, min, 0), (sig::OffsetCode{0, max}));
  EXPECT_EQ(sig::offset_fit(max, 3, 0, 2), (sig::OffsetCode{0, max})); // stride x 3 overflows
  EXPECT_EQ(sig::offset_fit(10, 3, 4, 1), (sig::OffsetCode{0, 10}));
  EXPECT_EQ(sig::offset_fit(10, 3, 4, 3), (sig::OffsetCode{0, 10}));
  EXPECT_EQ(sig::offset_fit(0, 0, 512, 1), (sig::OffsetCode{512, 0}));
}

TEST(RankOffsets, DecodedAndResolvedAtEachRank) {
  std::mt19937_64 rng(13);
  std::uniform_int_distribution<int64_t> coef(-(int64_t{1} << 40), int64_t{1} << 40);
  std::uniform_int_distribution<int64_t> rank(0, 1 << 20);
  for (int i = 0; i < 20000; ++i) {
    const int64_t s = coef(rng), b = coef(rng), r = rank(rng);
    const DecodedCall c = decode_signature(lookup, write_at(s, b));
    const DecodedElement &e = c.params[1].in.elements.at(0);
    ASSERT_EQ(e.stride, s);
    ASSERT_EQ(e.integer, b);
    int64_t v = 0;
    ASSERT_TRUE(offset_at_rank(e.stride, e.integer, r, v));
    ASSERT_EQ(v, b + s * r);
    ASSERT_FALSE(offset_at_rank(e.stride, e.integer, -1, v)); // rank unknown
    // Resolved without a rank (proxygen): the rule, and the value at any rank.
    const Call call = resolve_call(c);
    const CallElement &o = call.args[1].in.elements.at(0);
    ASSERT_EQ(o.offset_known, s == 0);
    ASSERT_EQ(o.rank_stride, s);
    ASSERT_EQ(o.rank_base, b);
    ASSERT_EQ(o.offset_at(r), b + s * r);
    // Resolved at a rank (the listing): the rank's own value.
    const Call at_rank = resolve_call(c, CallContext{r});
    ASSERT_TRUE(at_rank.args[1].in.elements.at(0).offset_known);
    ASSERT_EQ(at_rank.args[1].in.elements.at(0).integer, b + s * r);
  }
}

TEST(RankOffsets, ReadersPrintTheRanksOwnValue) {
  const std::string sig = write_at(512, 128);
  EXPECT_EQ(text(sig, 3), "MPI_File_write_at(fh=file#0, offset=1664, buf=buf#1, count=16, "
                          "datatype=MPI_INT, status={count=64}) = MPI_SUCCESS");
  EXPECT_EQ(text(sig, 0).find("offset=128,") != std::string::npos, true);
  // Where no rank is known (a CST entry shared by ranks): the rule.
  EXPECT_NE(format_call(decode_signature(lookup, sig)).find("offset=128+512*rank,"),
            std::string::npos);
  EXPECT_NE(format_call(decode_signature(lookup, write_at(-64, 0))).find("offset=-64*rank,"),
            std::string::npos);
  // Stride 0: the value itself, on every rank.
  EXPECT_NE(text(write_at(0, 4096), 7).find("offset=4096,"), std::string::npos);
}

TEST(RankOffsets, SpansListTheOffsetElements) {
  const std::string sig = write_at(-3, 1000);
  std::vector<OffsetSpan> spans;
  decode_signature_offsets(lookup, sig, spans);
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].stride, -3);
  EXPECT_EQ(spans[0].base, 1000);
  // Replacing the span by another coding gives a signature that decodes.
  std::string other = sig.substr(0, spans[0].begin);
  other += write_at(7, -5).substr(spans[0].begin, 2); // svarint(7) svarint(-5): 1 byte each
  other += sig.substr(spans[0].end);
  std::vector<OffsetSpan> again;
  decode_signature_offsets(lookup, other, again);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].stride, 7);
  EXPECT_EQ(again[0].base, -5);
}

TEST(RankOffsets, BadCodesGiveOneClearError) {
  // A value that does not fit in 64 bits at the rank: an error, not a wrap.
  const int64_t max = std::numeric_limits<int64_t>::max();
  try {
    text(write_at(max, max), 2);
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_NE(std::string(e.what()).find("overflows 64 bits"), std::string::npos) << e.what();
  }
  // Truncated anywhere, or a trailing byte: TraceError.
  const std::string good = write_at(512, 128);
  for (size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(decode_signature(lookup, good.substr(0, n)), TraceError) << n;
  EXPECT_THROW(decode_signature(lookup, good + std::string(1, '\0')), TraceError);
  // Without the flag (versions 1-6) the offset is one svarint: the same
  // bytes read as another call, which then has a trailing byte.
  EXPECT_THROW(decode_signature(sample::lookup, good), TraceError);
}

} // namespace
} // namespace pilgrim
