// A rank's per-call times while the run goes on, in bounded memory: calls are
// buffered one chunk at a time, each full chunk is encoded (timing_chunk.h)
// and appended to a spill file, so memory does not grow with the run's
// length. At MPI_Finalize the spill file's bytes become the rank's timing
// section (docs/FORMAT.md); the spill file is removed at the end of the run,
// on error and at MPI_Abort.
#pragma once

#include "pilgrim/timing_chunk.h"

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace pilgrim::timing {

class StreamWriter {
public:
  // Creates the spill file at `spill_path`. False with a one-line error.
  bool open(const std::string &spill_path, const Spec &spec, std::string &error);
  // The bound of a group's calls (set before its first call is added).
  void set_group_bound(uint32_t group, double bound);
  // One call, in call order. Inline: it is on the hot path.
  void add(int64_t start, int64_t end, uint32_t group) {
    start_[n_] = start;
    end_[n_] = end;
    group_[n_] = group;
    if (++n_ == kChunkCalls)
      flush();
  }
  // Encodes the buffered calls (if any) and appends them to the spill file.
  void flush();
  // Flushes; after it, payload_size() and copy_payload() give the rank's
  // timing payload (chunk framing of docs/FORMAT.md, "Per-call timing:
  // chunks"). False with a one-line error if the spill file could not be
  // written. No add() after finish().
  bool finish(std::string &error);
  uint64_t payload_size() const { return bytes_; }
  uint64_t chunks() const { return chunks_; }
  // Hands the payload to `sink` in order, in pieces of at most kCopyBlock
  // bytes (the caller writes each at its running offset, e.g. with
  // MPI_File_write_at). Stops at the first false from `sink`. False with a
  // one-line error if the spill file cannot be read or `sink` refused.
  using PayloadSink = std::function<bool(const uint8_t *data, size_t size)>;
  static constexpr size_t kCopyBlock = size_t{1} << 18;
  bool copy_payload(const PayloadSink &sink, std::string &error);
  uint64_t calls() const { return calls_ + n_; }
  // Removes the spill file (idempotent; also called from the destructor and
  // at MPI_Abort).
  void remove();
  // Bytes held in memory (buffers, not the spill file).
  size_t memory_bytes() const;
  ~StreamWriter();

private:
  Spec spec_;
  std::vector<double> bound_of_group_;
  std::vector<int64_t> start_, end_;
  std::vector<uint32_t> group_;
  std::vector<uint8_t> encoded_;
  size_t n_ = 0;
  uint64_t calls_ = 0, chunks_ = 0, bytes_ = 0;
  std::string path_;
  FILE *spill_ = nullptr;
  std::string error_; // the first write error, reported by finish()
};

} // namespace pilgrim::timing
