// Buffered stdout for the text reports of pilgrim-dump and pilgrim-stats: large
// writes, one error check.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace pilgrim {

class TextOutput {
public:
  explicit TextOutput(std::FILE *file) : file_(file) {}
  ~TextOutput();
  TextOutput(const TextOutput &) = delete;
  TextOutput &operator=(const TextOutput &) = delete;

  TextOutput &operator<<(std::string_view s) {
    buffer_.append(s.data(), s.size());
    if (buffer_.size() >= kFlushAt)
      flush();
    return *this;
  }
  TextOutput &operator<<(char c) {
    buffer_.push_back(c);
    return *this;
  }
  // Throws std::runtime_error on a write error.
  void flush();

private:
  static constexpr size_t kFlushAt = 1 << 16;
  std::FILE *file_;
  std::string buffer_;
};

} // namespace pilgrim
