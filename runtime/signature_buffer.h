// The bytes of the call being recorded: a per-thread buffer that grows
// geometrically and is reused for every call, so steady state allocates nothing.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace pilgrim::rt {

class SignatureBuffer {
public:
  SignatureBuffer() = default;
  SignatureBuffer(const SignatureBuffer &) = delete;
  SignatureBuffer &operator=(const SignatureBuffer &) = delete;
  ~SignatureBuffer() { std::free(data_); }

  void clear() { size_ = 0; }
  size_t size() const { return size_; }
  const uint8_t *data() const { return data_; }

  // Room for at least n more bytes.
  uint8_t *reserve(size_t n) {
    if (size_ + n > cap_)
      grow(size_ + n);
    return data_ + size_;
  }
  void commit(uint8_t *end) { size_ = static_cast<size_t>(end - data_); }

  void put_varint(uint64_t v) {
    uint8_t *p = reserve(10);
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v) | 0x80;
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    commit(p);
  }
  void put_zigzag(int64_t v) {
    put_varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void put_bytes(const void *src, size_t n) {
    uint8_t *p = reserve(n);
    std::memcpy(p, src, n);
    commit(p + n);
  }

private:
  void grow(size_t need) {
    size_t cap = cap_ ? cap_ : 256;
    while (cap < need)
      cap *= 2;
    void *p = std::realloc(data_, cap);
    if (!p)
      throw std::bad_alloc();
    data_ = static_cast<uint8_t *>(p);
    cap_ = cap;
  }
  uint8_t *data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
};

}  // namespace pilgrim::rt
