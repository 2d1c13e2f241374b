// PayloadReader: the chunk framing of a rank's timing payload, checked, and
// each chunk decoded by its codec.
#include "pilgrim/timing_payload.h"

#include "pilgrim/varint.h"

#include <cstring>
#include <utility>

namespace pilgrim::timing {

PayloadReader::PayloadReader(const Spec &spec, std::vector<double> bound_of_group, uint64_t size,
                             ReadAt read_at)
    : spec_(spec), bound_of_group_(std::move(bound_of_group)), size_(size),
      read_at_(std::move(read_at)) {}

PayloadReader::PayloadReader(const Spec &spec, std::vector<double> bound_of_group, const uint8_t *p,
                             uint64_t size)
    : PayloadReader(spec, std::move(bound_of_group), size,
                    [p](uint64_t offset, size_t n, uint8_t *out) {
                      std::memcpy(out, p + offset, n);
                      return true;
                    }) {}

bool PayloadReader::next(size_t &ncalls, std::string &error) {
  ncalls_ = 0;
  if (pos_ >= size_)
    return false;
  chunk_offset_ = pos_;
  const std::string where = "timing chunk " + std::to_string(chunk_) + " at payload byte " +
                            std::to_string(chunk_offset_);
  // The frame: two varints, at most 2 * kMaxVarintBytes bytes.
  uint8_t head[2 * kMaxVarintBytes];
  const size_t have = size_ - pos_ < sizeof head ? static_cast<size_t>(size_ - pos_) : sizeof head;
  if (!read_at_(pos_, have, head)) {
    error = where + ": cannot read the payload";
    return false;
  }
  uint64_t v[2];
  size_t at = 0;
  for (uint64_t &value : v) {
    value = 0;
    for (int shift = 0;; shift += 7) {
      if (at >= have || shift > 63) {
        error = where + ": truncated or malformed frame";
        return false;
      }
      const uint8_t b = head[at++];
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80))
        break;
    }
  }
  const uint64_t n = v[0], nbytes = v[1];
  pos_ += at;
  if (n == 0 || n > kChunkCalls) {
    error = where + ": call count " + std::to_string(n) + " out of range (1.." +
            std::to_string(kChunkCalls) + ")";
    return false;
  }
  if (nbytes > size_ - pos_) {
    error = where + ": truncated (" + std::to_string(nbytes) + " bytes announced, " +
            std::to_string(size_ - pos_) + " left)";
    return false;
  }
  bytes_.resize(static_cast<size_t>(nbytes));
  if (nbytes && !read_at_(pos_, static_cast<size_t>(nbytes), bytes_.data())) {
    error = where + ": cannot read the payload";
    return false;
  }
  pos_ += nbytes;
  ncalls_ = static_cast<size_t>(n);
  ncalls = ncalls_;
  return true;
}

bool PayloadReader::decode(const uint32_t *group, int64_t *start, int64_t *end,
                           std::string &error) {
  std::string why;
  if (!decode_chunk(spec_, bound_of_group_, bytes_.data(), bytes_.size(), ncalls_, group, start,
                    end, why)) {
    error = "timing chunk " + std::to_string(chunk_) + " at payload byte " +
            std::to_string(chunk_offset_) + ": " + why;
    return false;
  }
  calls_ += ncalls_;
  ++chunk_;
  return true;
}

bool decode_payload(const Spec &spec, const std::vector<double> &bound_of_group, const uint8_t *p,
                    uint64_t size, uint64_t ncalls, const uint32_t *group, int64_t *start,
                    int64_t *end, std::string &error) {
  PayloadReader reader(spec, bound_of_group, p, size);
  size_t n = 0;
  uint64_t done = 0;
  error.clear();
  while (reader.next(n, error)) {
    if (n > ncalls - done) {
      error = "timing payload holds more than the rank's " + std::to_string(ncalls) + " calls";
      return false;
    }
    if (!reader.decode(group + done, start + done, end + done, error))
      return false;
    done += n;
  }
  if (!error.empty())
    return false;
  if (done != ncalls) {
    error = "timing payload holds " + std::to_string(done) + " calls, the rank made " +
            std::to_string(ncalls);
    return false;
  }
  return true;
}

} // namespace pilgrim::timing
