// Varints, zigzag, the bounds-checked reader and CRC-32C.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "pilgrim/byte_io.h"
#include "pilgrim/crc32c.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/varint.h"

namespace pilgrim {
namespace {

std::string encode(uint64_t v) {
  uint8_t buf[kMaxVarintBytes];
  uint8_t *p = buf;
  put_varint(p, v);
  return std::string(reinterpret_cast<char *>(buf), static_cast<size_t>(p - buf));
}

TEST(FormatVarint, KnownEncodings) {
  EXPECT_EQ(encode(0), std::string("\x00", 1));
  EXPECT_EQ(encode(1), "\x01");
  EXPECT_EQ(encode(127), "\x7f");
  EXPECT_EQ(encode(128), "\x80\x01");
  EXPECT_EQ(encode(300), "\xac\x02");
  EXPECT_EQ(encode(UINT64_MAX), "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01");
  EXPECT_EQ(varint_size(0), 1u);
  EXPECT_EQ(varint_size(127), 1u);
  EXPECT_EQ(varint_size(128), 2u);
  EXPECT_EQ(varint_size(UINT64_MAX), 10u);
}

TEST(FormatVarint, ZigzagMapsSmallMagnitudesToSmallCodes) {
  EXPECT_EQ(zigzag_encode(0), 0u);
  EXPECT_EQ(zigzag_encode(-1), 1u);
  EXPECT_EQ(zigzag_encode(1), 2u);
  EXPECT_EQ(zigzag_encode(-2), 3u);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<int64_t>::max()), UINT64_MAX - 1);
  EXPECT_EQ(zigzag_encode(std::numeric_limits<int64_t>::min()), UINT64_MAX);
  for (int64_t v : {int64_t{0}, int64_t{1}, int64_t{-1}, int64_t{12345}, int64_t{-98765},
                    std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()})
    EXPECT_EQ(zigzag_decode(zigzag_encode(v)), v);
}

TEST(FormatVarint, RoundTripThroughReader) {
  std::string s;
  ByteWriter w(s);
  const uint64_t values[] = {0, 1, 127, 128, 16383, 16384, uint64_t{1} << 35, UINT64_MAX};
  for (uint64_t v : values)
    w.varint(v);
  w.svarint(-7);
  ByteReader r(s);
  for (uint64_t v : values)
    EXPECT_EQ(r.varint(), v);
  EXPECT_EQ(r.svarint(), -7);
  EXPECT_TRUE(r.at_end());
}

TEST(FormatVarint, RejectsMalformed) {
  auto read = [](const std::string &bytes) {
    ByteReader r(bytes);
    return r.varint();
  };
  EXPECT_THROW(read(""), TraceError);
  EXPECT_THROW(read("\x80"), TraceError);                     // truncated
  EXPECT_THROW(read(std::string("\x80\x00", 2)), TraceError); // overlong (non-minimal)
  EXPECT_THROW(read("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02"), TraceError);     // > 64 bits
  EXPECT_THROW(read("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x81\x01"), TraceError); // 11 bytes
  try {
    read("\x80");
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_STREQ(e.what(), "truncated varint at byte 0");
  }
}

TEST(FormatByteReader, FixedWidthLittleEndian) {
  std::string s;
  ByteWriter w(s);
  w.u16le(0x1234);
  w.u32le(0xdeadbeef);
  w.u64le(0x0102030405060708ull);
  w.f64le(-1.5);
  EXPECT_EQ(s.substr(0, 2), "\x34\x12");
  ByteReader r(s);
  EXPECT_EQ(r.u16le(), 0x1234);
  EXPECT_EQ(r.u32le(), 0xdeadbeefu);
  EXPECT_EQ(r.u64le(), 0x0102030405060708ull);
  EXPECT_EQ(r.f64le(), -1.5);
  EXPECT_THROW(r.u8(), TraceError);
}

TEST(FormatByteReader, CountsCannotExceedRemainingBytes) {
  std::string s;
  ByteWriter w(s);
  w.varint(1000000);
  w.bytes("abc");
  ByteReader r(s);
  EXPECT_THROW(r.count(1, "things"), TraceError);
  ByteReader r2(s);
  EXPECT_THROW(r2.string(), TraceError);
}

TEST(FormatByteReader, NullableStrings) {
  std::string s;
  ByteWriter w(s);
  w.nullable_string(nullptr);
  w.nullable_string("");
  w.nullable_string("hi");
  ByteReader r(s);
  std::string_view v;
  EXPECT_FALSE(r.nullable_string(v));
  EXPECT_TRUE(r.nullable_string(v));
  EXPECT_EQ(v, "");
  EXPECT_TRUE(r.nullable_string(v));
  EXPECT_EQ(v, "hi");
  EXPECT_TRUE(r.at_end());
}

TEST(FormatCrc32c, KnownVectors) {
  EXPECT_EQ(crc32c("", 0), 0u);
  EXPECT_EQ(crc32c("123456789", 9), 0xE3069283u);
  std::string zeros(32, '\0');
  EXPECT_EQ(crc32c(zeros.data(), zeros.size()), 0x8A9136AAu); // RFC 3720 B.4
  std::string ff(32, '\xff');
  EXPECT_EQ(crc32c(ff.data(), ff.size()), 0x62A8AB43u);
  // Incremental == one shot, at every split point.
  const std::string text = "The quick brown fox jumps over the lazy dog, twice over.";
  const uint32_t whole = crc32c(text.data(), text.size());
  for (size_t k = 0; k <= text.size(); ++k)
    EXPECT_EQ(crc32c_extend(crc32c(text.data(), k), text.data() + k, text.size() - k), whole);
}

TEST(FormatTraceError, MessagesAreOneLine) {
  TraceError e("a\nb\rc");
  EXPECT_STREQ(e.what(), "a b c");
  EXPECT_EQ(sanitize_for_message(std::string("x\ny\x01", 4)), "x\\x0ay\\x01");
  EXPECT_EQ(sanitize_for_message(std::string(100, 'a'), 4), "aaaa...");
}

} // namespace
} // namespace pilgrim
