// StreamWriter: one chunk of calls in memory, every full chunk encoded and
// appended, framed, to the spill file.
#include "pilgrim/timing_stream.h"

#include "pilgrim/varint.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace pilgrim::timing {

bool StreamWriter::open(const std::string &spill_path, const Spec &spec, std::string &error) {
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
  start_.assign(kChunkCalls, 0);
  end_.assign(kChunkCalls, 0);
  group_.assign(kChunkCalls, 0);
  n_ = 0;
  calls_ = chunks_ = bytes_ = 0;
  error_.clear();
  return true;
}

void StreamWriter::set_group_bound(uint32_t group, double bound) {
  if (group >= bound_of_group_.size())
    bound_of_group_.resize(size_t{group} + 1, spec_.bound);
  bound_of_group_[group] = bound;
}

void StreamWriter::flush() {
  if (n_ == 0)
    return;
  encoded_.clear();
  uint8_t frame[2 * kMaxVarintBytes];
  uint8_t *p = frame;
  const ChunkView view{n_, start_.data(), end_.data(), group_.data()};
  encode_chunk(spec_, bound_of_group_, view, encoded_);
  put_varint(p, n_);
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
  calls_ += n_;
  ++chunks_;
  n_ = 0;
}

bool StreamWriter::finish(std::string &error) {
  flush();
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
  return start_.capacity() * sizeof(int64_t) + end_.capacity() * sizeof(int64_t) +
         group_.capacity() * sizeof(uint32_t) + encoded_.capacity() +
         bound_of_group_.capacity() * sizeof(double);
}

void StreamWriter::remove() {
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
