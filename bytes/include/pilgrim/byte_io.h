// Little-endian byte I/O for the trace format: ByteWriter appends to a
// std::string (writer side, not the hot path), ByteReader is a
// bounds-checked cursor over untrusted bytes that throws TraceError on
// anything malformed: reading past the end, overlong or overflowing varints,
// counts larger than the bytes that could hold them.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "pilgrim/varint.h"

namespace pilgrim {

class ByteWriter {
public:
  explicit ByteWriter(std::string &out) : out_(out) {}

  void u8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16le(uint16_t v) { fixed(v, 2); }
  void u32le(uint32_t v) { fixed(v, 4); }
  void u64le(uint64_t v) { fixed(v, 8); }
  void f64le(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    fixed(bits, 8);
  }
  void varint(uint64_t v) {
    uint8_t buf[kMaxVarintBytes];
    uint8_t *p = buf;
    put_varint(p, v);
    out_.append(reinterpret_cast<const char *>(buf), static_cast<size_t>(p - buf));
  }
  void svarint(int64_t v) { varint(zigzag_encode(v)); }
  void bytes(std::string_view b) { out_.append(b.data(), b.size()); }
  // varint(len) bytes
  void string(std::string_view s) {
    varint(s.size());
    bytes(s);
  }
  // varint(len + 1) bytes, or varint(0) for NULL.
  void nullable_string(const char *s) {
    if (!s) {
      varint(0);
      return;
    }
    std::string_view v(s);
    varint(v.size() + 1);
    bytes(v);
  }

private:
  void fixed(uint64_t v, int n) {
    for (int i = 0; i < n; ++i)
      out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::string &out_;
};

class ByteReader {
public:
  explicit ByteReader(std::string_view data) : data_(data) {}

  size_t offset() const { return pos_; }
  size_t remaining() const { return data_.size() - pos_; }
  bool at_end() const { return pos_ == data_.size(); }

  uint8_t u8() {
    need(1);
    return static_cast<uint8_t>(data_[pos_++]);
  }
  uint16_t u16le() { return static_cast<uint16_t>(fixed(2)); }
  uint32_t u32le() { return static_cast<uint32_t>(fixed(4)); }
  uint64_t u64le() { return fixed(8); }
  double f64le() {
    uint64_t bits = fixed(8);
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  // Unsigned LEB128. Rejects encodings longer than 10 bytes, values that do
  // not fit 64 bits and non-minimal encodings (a final 0x00 group).
  uint64_t varint() {
    const size_t start = pos_;
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      if (pos_ >= data_.size())
        fail_at("truncated varint", start);
      const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
      if (shift == 63 && b > 1)
        fail_at("varint overflows 64 bits", start);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if (b == 0 && shift > 0)
          fail_at("overlong varint", start);
        return v;
      }
      if (shift == 63)
        fail_at("varint overflows 64 bits", start);
    }
  }
  int64_t svarint() { return zigzag_decode(varint()); }

  // A varint that must be <= max.
  uint64_t varint_max(uint64_t max, const char *what) {
    const size_t start = pos_;
    uint64_t v = varint();
    if (v > max)
      fail_at(std::string(what) + " " + std::to_string(v) + " out of range", start);
    return v;
  }
  // A zigzag varint that must fit int32.
  int32_t svarint32(const char *what) {
    const size_t start = pos_;
    int64_t v = svarint();
    if (v < INT32_MIN || v > INT32_MAX)
      fail_at(std::string(what) + " " + std::to_string(v) + " out of range", start);
    return static_cast<int32_t>(v);
  }
  // An element count: a varint that cannot exceed the bytes left divided by
  // the smallest encoded size of one element (so a hostile count never leads
  // to a large allocation).
  uint64_t count(size_t min_element_bytes, const char *what) {
    const size_t start = pos_;
    uint64_t n = varint();
    if (min_element_bytes == 0)
      min_element_bytes = 1;
    if (n > remaining() / min_element_bytes)
      fail_at(std::string(what) + " " + std::to_string(n) + " exceeds the remaining " +
                  std::to_string(remaining()) + " bytes",
              start);
    return n;
  }

  // An array prefix varint(n + 1) (0 = NULL): returns the prefix, after
  // checking that n elements of at least `min_element_bytes` each fit in the
  // bytes left.
  uint64_t array_prefix(size_t min_element_bytes, const char *what) {
    const size_t start = pos_;
    uint64_t prefix = varint();
    if (min_element_bytes == 0)
      min_element_bytes = 1;
    if (prefix != 0 && prefix - 1 > remaining() / min_element_bytes)
      fail_at(std::string(what) + " " + std::to_string(prefix - 1) + " exceeds the remaining " +
                  std::to_string(remaining()) + " bytes",
              start);
    return prefix;
  }

  std::string_view bytes(size_t n) {
    need(n);
    std::string_view v = data_.substr(pos_, n);
    pos_ += n;
    return v;
  }
  // varint(len) bytes
  std::string_view string() {
    const size_t start = pos_;
    uint64_t n = varint();
    if (n > remaining())
      fail_at("truncated string", start);
    return bytes(static_cast<size_t>(n));
  }
  // varint(len + 1) bytes, or varint(0) for NULL: returns false for NULL.
  bool nullable_string(std::string_view &out) {
    const size_t start = pos_;
    uint64_t n = varint();
    if (n == 0)
      return false;
    if (n - 1 > remaining())
      fail_at("truncated string", start);
    out = bytes(static_cast<size_t>(n - 1));
    return true;
  }

  // Throws "MESSAGE at byte N" (N = the current offset).
  [[noreturn]] void fail(const std::string &message) const { fail_at(message, pos_); }
  [[noreturn]] void fail_at(const std::string &message, size_t offset) const;

private:
  void need(size_t n) {
    if (n > remaining())
      fail_at("truncated data (need " + std::to_string(n) + " bytes, " +
                  std::to_string(remaining()) + " left)",
              pos_);
  }
  uint64_t fixed(int n) {
    need(static_cast<size_t>(n));
    uint64_t v = 0;
    for (int i = 0; i < n; ++i)
      v |= static_cast<uint64_t>(static_cast<uint8_t>(data_[pos_ + i])) << (8 * i);
    pos_ += static_cast<size_t>(n);
    return v;
  }

  std::string_view data_;
  size_t pos_ = 0;
};

} // namespace pilgrim
