// StreamWriter: one chunk of calls filling while the encoder thread encodes
// the previous one and appends it, framed, to the spill file.
#include "pilgrim/timing_stream.h"

#include "pilgrim/varint.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <system_error>
#include <unistd.h>

namespace pilgrim::timing {

namespace {

void size_chunk(std::vector<int64_t> &start, std::vector<int64_t> &end,
                std::vector<uint32_t> &group) {
  start.assign(kChunkCalls, 0);
  end.assign(kChunkCalls, 0);
  group.assign(kChunkCalls, 0);
}

} // namespace

void StreamWriter::point_at_fill() {
  fill_start_ = fill_.start.data();
  fill_end_ = fill_.end.data();
  fill_group_ = fill_.group.data();
}

bool StreamWriter::open(const std::string &spill_path, const Spec &spec, std::string &error,
                        bool background) {
  remove();
  spec_ = spec;
  const int fd = ::open(spill_path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0 || !(spill_ = fdopen(fd, "w+b"))) {
    error =
        "pilgrim: cannot create the timing spill file " + spill_path + ": " + std::strerror(errno);
    if (fd >= 0)
      ::close(fd);
    return false;
  }
  path_ = spill_path;
  size_chunk(fill_.start, fill_.end, fill_.group);
  point_at_fill();
  n_ = 0;
  calls_ = chunks_ = bytes_ = 0;
  error_.clear();
  pending_ = stop_ = false;
  if (background) {
    size_chunk(work_.start, work_.end, work_.group);
    // The encoder blocks every signal: the application's handlers run on its
    // own threads, as they would untraced.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    try {
      encoder_ = std::thread(&StreamWriter::encoder_loop, this);
    } catch (const std::system_error &) {
      // No thread: chunks are encoded on the caller's thread.
    }
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
  }
  return true;
}

void StreamWriter::encoder_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return pending_ || stop_; });
    if (pending_) {
      lock.unlock();
      encode(work_);
      lock.lock();
      pending_ = false;
      done_.notify_all();
      continue;
    }
    return; // stop_, nothing pending
  }
}

void StreamWriter::wait_idle(std::unique_lock<std::mutex> &lock) {
  done_.wait(lock, [this] { return !pending_; });
}

void StreamWriter::stop_encoder() {
  if (!encoder_.joinable())
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  encoder_.join(); // it encodes what was handed over first
}

void StreamWriter::set_group_bound(uint32_t group, double bound) {
  if (group >= bound_of_group_.size())
    bound_of_group_.resize(size_t{group} + 1, spec_.bound);
  bound_of_group_[group] = bound;
}

void StreamWriter::flush() {
  if (n_ == 0)
    return;
  fill_.n = n_;
  calls_ += n_;
  n_ = 0;
  if (!encoder_.joinable()) {
    fill_.bounds = bound_of_group_;
    encode(fill_);
    return;
  }
  {
    std::unique_lock<std::mutex> lock(mutex_);
    wait_idle(lock); // the previous chunk is encoded: work_ is free
    std::swap(fill_, work_);
    work_.bounds = bound_of_group_;
    pending_ = true;
  }
  wake_.notify_one();
  point_at_fill();
}

void StreamWriter::encode(const Chunk &chunk) {
  encoded_.clear();
  uint8_t frame[2 * kMaxVarintBytes];
  uint8_t *p = frame;
  const size_t n = chunk.n;
  const ChunkView view{n, chunk.start.data(), chunk.end.data(), chunk.group.data()};
  encode_chunk(spec_, chunk.bounds, view, encoded_);
  put_varint(p, n);
  put_varint(p, encoded_.size());
  const size_t frame_size = static_cast<size_t>(p - frame);
  if (spill_ && error_.empty()) {
    if (std::fwrite(frame, 1, frame_size, spill_) != frame_size ||
        std::fwrite(encoded_.data(), 1, encoded_.size(), spill_) != encoded_.size())
      error_ = "pilgrim: cannot write the timing spill file " + path_ + ": " + std::strerror(errno);
  } else if (!spill_ && error_.empty()) {
    error_ = "pilgrim: the timing spill file is not open";
  }
  bytes_ += frame_size + encoded_.size();
  ++chunks_;
  encoded_capacity_.store(encoded_.capacity(), std::memory_order_relaxed);
}

bool StreamWriter::finish(std::string &error) {
  flush();
  stop_encoder();
  if (spill_ && error_.empty() && std::fflush(spill_) != 0)
    error_ = "pilgrim: cannot write the timing spill file " + path_ + ": " + std::strerror(errno);
  if (!error_.empty()) {
    error = error_;
    return false;
  }
  return true;
}

bool StreamWriter::copy_payload(const PayloadSink &sink, std::string &error) {
  if (!spill_ || !error_.empty()) {
    error = error_.empty() ? "pilgrim: the timing spill file is not open" : error_;
    return false;
  }
  if (std::fflush(spill_) != 0 || std::fseek(spill_, 0, SEEK_SET) != 0) {
    error = "pilgrim: cannot read the timing spill file " + path_ + ": " + std::strerror(errno);
    return false;
  }
  std::vector<uint8_t> block(kCopyBlock);
  uint64_t left = bytes_;
  bool ok = true;
  while (left > 0 && ok) {
    const size_t want = left < block.size() ? static_cast<size_t>(left) : block.size();
    if (std::fread(block.data(), 1, want, spill_) != want) {
      error = "pilgrim: cannot read the timing spill file " + path_ +
              (std::ferror(spill_) ? std::string(": ") + std::strerror(errno)
                                   : std::string(": it is shorter than written"));
      ok = false;
      break;
    }
    if (!sink(block.data(), want)) {
      error = "pilgrim: the timing payload could not be written";
      ok = false;
    }
    left -= want;
  }
  // Further chunks (if any) go after the payload.
  std::fseek(spill_, 0, SEEK_END);
  return ok;
}

size_t StreamWriter::memory_bytes() const {
  // encoded_ is the encoder's: its capacity as of the last chunk encoded.
  size_t bytes = encoded_capacity_.load(std::memory_order_relaxed) +
                 bound_of_group_.capacity() * sizeof(double);
  for (const Chunk *c : {&fill_, &work_})
    bytes += c->start.capacity() * sizeof(int64_t) + c->end.capacity() * sizeof(int64_t) +
             c->group.capacity() * sizeof(uint32_t) + c->bounds.capacity() * sizeof(double);
  return bytes;
}

void StreamWriter::remove() {
  stop_encoder();
  if (spill_) {
    std::fclose(spill_);
    spill_ = nullptr;
  }
  if (!path_.empty()) {
    ::unlink(path_.c_str());
    path_.clear();
  }
}

StreamWriter::~StreamWriter() { remove(); }

} // namespace pilgrim::timing
