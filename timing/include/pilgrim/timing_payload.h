// Reading a rank's timing payload (docs/FORMAT.md, "Per-call timing:
// chunks"): the chunk framing written by StreamWriter, walked one chunk at a
// time so that memory does not grow with the number of calls.
//   payload := chunk*
//   chunk   := varint(ncalls) varint(nbytes) byte[nbytes]   1 <= ncalls <= kChunkCalls
#pragma once

#include "pilgrim/timing_chunk.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pilgrim::timing {

class PayloadReader {
public:
  // Copies payload bytes [offset, offset + n) into `out`; false on a read
  // error.
  using ReadAt = std::function<bool(uint64_t offset, size_t n, uint8_t *out)>;

  PayloadReader(const Spec &spec, std::vector<double> bound_of_group, uint64_t size,
                ReadAt read_at);
  // A payload held in memory (the bytes must outlive the reader).
  PayloadReader(const Spec &spec, std::vector<double> bound_of_group, const uint8_t *p,
                uint64_t size);

  // Reads the next chunk's framing and bytes: true with `ncalls` set, or
  // false at the end of the payload (error empty) or on a bad or truncated
  // frame (one-line error naming the chunk and its offset).
  bool next(size_t &ncalls, std::string &error);
  // Decodes the chunk next() returned: `group` holds its calls' groups,
  // start/end receive ncalls values each.
  bool decode(const uint32_t *group, int64_t *start, int64_t *end, std::string &error);

  uint64_t calls_read() const { return calls_; }
  uint64_t chunk_index() const { return chunk_; }

private:
  Spec spec_;
  std::vector<double> bound_of_group_;
  uint64_t size_ = 0, pos_ = 0, calls_ = 0, chunk_ = 0, chunk_offset_ = 0;
  ReadAt read_at_;
  std::vector<uint8_t> bytes_; // the current chunk
  size_t ncalls_ = 0;
};

// Decodes a whole payload of `ncalls` calls held in memory: group[i] is
// call i's group, start/end receive ncalls values. False with a one-line
// error on a bad payload or a call count other than `ncalls`.
bool decode_payload(const Spec &spec, const std::vector<double> &bound_of_group, const uint8_t *p,
                    uint64_t size, uint64_t ncalls, const uint32_t *group, int64_t *start,
                    int64_t *end, std::string &error);

} // namespace pilgrim::timing
