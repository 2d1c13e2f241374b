// The bytes of the call being recorded: a per-thread buffer that grows
// geometrically and is reused for every call, so steady state allocates nothing.
// It is kept as pointers (start, write position, end): a put is one room check
// and one store of the position, the hot path's cheapest form.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#define PILGRIM_BUFFER_INLINE __attribute__((always_inline))

namespace pilgrim::rt {

class SignatureBuffer {
public:
  SignatureBuffer() = default;
  SignatureBuffer(const SignatureBuffer &) = delete;
  SignatureBuffer &operator=(const SignatureBuffer &) = delete;
  ~SignatureBuffer() { std::free(data_); }

  void clear() { pos_ = data_; }
  // After the first put, at least kMinCapacity bytes are allocated: a reader
  // may load the first 16 bytes whole and mask what is past size().
  static constexpr size_t kMinCapacity = 256;
  size_t size() const { return static_cast<size_t>(pos_ - data_); }
  const uint8_t *data() const { return data_; }

  // Room for at least n more bytes.
  PILGRIM_BUFFER_INLINE uint8_t *reserve(size_t n) {
    if (static_cast<size_t>(end_ - pos_) < n)
      grow(n);
    return pos_;
  }
  void commit(uint8_t *end) { pos_ = end; }

  // Writes v as a varint at p (room for 10 bytes); returns its end.
  PILGRIM_BUFFER_INLINE static uint8_t *write_varint(uint8_t *p, uint64_t v) {
    while (v >= 0x80) {
      *p++ = static_cast<uint8_t>(v) | 0x80;
      v >>= 7;
    }
    *p++ = static_cast<uint8_t>(v);
    return p;
  }
  PILGRIM_BUFFER_INLINE void put_varint(uint64_t v) { commit(write_varint(reserve(10), v)); }
  PILGRIM_BUFFER_INLINE void put_zigzag(int64_t v) {
    put_varint((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }
  void put_bytes(const void *src, size_t n) {
    uint8_t *p = reserve(n);
    std::memcpy(p, src, n);
    commit(p + n);
  }

private:
  // Room for n more bytes past pos_.
  __attribute__((noinline)) void grow(size_t n) {
    const size_t size = this->size(), need = size + n;
    size_t cap = data_ ? static_cast<size_t>(end_ - data_) : kMinCapacity;
    while (cap < need)
      cap *= 2;
    void *p = std::realloc(data_, cap);
    if (!p)
      throw std::bad_alloc();
    data_ = static_cast<uint8_t *>(p);
    pos_ = data_ + size;
    end_ = data_ + cap;
  }
  uint8_t *data_ = nullptr;
  uint8_t *pos_ = nullptr;
  uint8_t *end_ = nullptr;
};

} // namespace pilgrim::rt
