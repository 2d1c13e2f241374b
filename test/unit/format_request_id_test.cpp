// Request ids: the Cantor pairing of (pool, slot) and its inverse
// (pilgrim/request_id.h), as pilgrim-dump prints them (docs/DUMP.md).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "pilgrim/call_formatter.h"
#include "pilgrim/request_id.h"
#include "pilgrim/signature_encoding.h"

namespace pilgrim {
namespace {

TEST(FormatRequestId, PairsRoundTrip) {
  for (uint32_t pool = 0; pool < 200; ++pool)
    for (uint32_t slot = 0; slot < 200; ++slot) {
      const RequestId id = request_id_parts(request_id_code(pool, slot));
      ASSERT_EQ(id.pool, pool);
      ASSERT_EQ(id.slot, slot);
    }
  std::mt19937_64 rng(10);
  std::uniform_int_distribution<uint32_t> any(0, 3000000000u); // pool + slot fits (request_id.h)
  for (int i = 0; i < 100000; ++i) {
    const uint32_t pool = any(rng), slot = any(rng);
    const RequestId id = request_id_parts(request_id_code(pool, slot));
    ASSERT_EQ(id.pool, pool);
    ASSERT_EQ(id.slot, slot);
  }
  // The largest pair whose code fits: d(d + 1)/2 + slot <= 2^64 - 1.
  const uint32_t big = 3037000499u;
  const RequestId top = request_id_parts(request_id_code(big, big));
  EXPECT_EQ(top.pool, big);
  EXPECT_EQ(top.slot, big);
}

// Every 64-bit id, even one no runtime writes, has exactly one pair.
TEST(FormatRequestId, EveryIdHasOnePair) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 100000; ++i) {
    const uint64_t u = i < 1000 ? UINT64_MAX - static_cast<uint64_t>(i) : rng();
    const RequestId id = request_id_parts(u);
    // u = d(d + 1)/2 + slot with slot <= d: check without overflow.
    const uint64_t d = id.pool + id.slot;
    ASSERT_GE(d, id.slot) << u;
    const uint64_t half = d % 2 == 0 ? (d / 2) * (d + 1) : d * ((d + 1) / 2);
    ASSERT_EQ(half + id.slot, u) << u;
  }
}

TEST(FormatRequestId, PrintedAsPoolDotSlot) {
  // The eighth pool's first request, stored as 28, and the eighth slot of
  // the first pool, stored as 35.
  EXPECT_EQ(request_id_text(28), "7.0");
  EXPECT_EQ(request_id_text(35), "0.7");
  EXPECT_EQ(format_handle(HandleKind::Request, sig::handle_user(28)), "req#7.0");
  EXPECT_EQ(format_handle(HandleKind::Request, sig::handle_user(0)), "req#0.0");
  EXPECT_EQ(format_handle(HandleKind::Comm, sig::handle_user(28)), "comm#28");
}

} // namespace
} // namespace pilgrim
