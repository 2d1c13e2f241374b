// A rank's per-call times while the run goes on, in bounded memory: calls are
// buffered one chunk at a time, each full chunk is encoded (timing_chunk.h)
// and appended to a spill file, so memory does not grow with the run's
// length.
//
// Encoding runs on an encoder thread of the writer's own (open()'s
// `background`): the caller's add() only stores the call; a full chunk is
// handed over by swapping two buffers (one lock and one wake-up per 65,536
// calls), and the caller waits only when the encoder has not finished the
// previous chunk yet. The encoder thread blocks every signal, makes no MPI
// call and touches only the spill file. Without `background` (or when no
// thread can be started) a full chunk is encoded on the caller's thread. At MPI_Finalize the spill
// file's bytes become the rank's timing section (docs/FORMAT.md); the spill file is removed at the
// end of the run, on error and at MPI_Abort.
#pragma once

#include "pilgrim/timing_chunk.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace pilgrim::timing {

class StreamWriter {
public:
  // Creates the spill file at `spill_path` and, with `background`, the
  // encoder thread. False with a one-line error.
  bool open(const std::string &spill_path, const Spec &spec, std::string &error,
            bool background = true);
  // Whether full chunks are encoded on the encoder thread.
  bool background() const { return encoder_.joinable(); }
  // The bound of a group's calls (set before its first call is added).
  void set_group_bound(uint32_t group, double bound);
  // One call, in call order. Inline: it is on the hot path.
  void add(int64_t start, int64_t end, uint32_t group) {
    fill_start_[n_] = start;
    fill_end_[n_] = end;
    fill_group_[n_] = group;
    if (++n_ == kChunkCalls)
      flush();
  }
  // Encodes the buffered calls (if any; on the encoder thread when there is
  // one) and appends them to the spill file.
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
  // One chunk of calls and the bounds its groups had when it was handed
  // over (the caller may add groups while the encoder works).
  struct Chunk {
    std::vector<int64_t> start, end;
    std::vector<uint32_t> group;
    std::vector<double> bounds;
    size_t n = 0;
  };
  void point_at_fill();
  void encode(const Chunk &chunk); // encodes and appends (encoder's side)
  void wait_idle(std::unique_lock<std::mutex> &lock);
  void stop_encoder();
  void encoder_loop();

  Spec spec_;
  std::vector<double> bound_of_group_;
  Chunk fill_, work_; // the caller fills fill_; the encoder reads work_
  int64_t *fill_start_ = nullptr, *fill_end_ = nullptr;
  uint32_t *fill_group_ = nullptr;
  size_t n_ = 0;
  uint64_t calls_ = 0; // calls handed over (the caller's)
  // The encoder's, read by the caller only when it is idle:
  std::vector<uint8_t> encoded_;
  std::atomic<size_t> encoded_capacity_{0}; // for memory_bytes()
  uint64_t chunks_ = 0, bytes_ = 0;
  std::string path_;
  FILE *spill_ = nullptr;
  std::string error_; // the first write error, reported by finish()

  std::thread encoder_;
  mutable std::mutex mutex_;
  std::condition_variable wake_; // work handed over, or stop
  std::condition_variable done_; // work_ encoded
  bool pending_ = false, stop_ = false;
};

} // namespace pilgrim::timing
