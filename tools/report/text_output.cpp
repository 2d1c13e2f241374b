#include "text_output.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <stdexcept>

namespace pilgrim {

TextOutput::~TextOutput() {
  // On an error path (exception in flight) the partial output is dropped.
  if (!buffer_.empty() && std::uncaught_exceptions() == 0)
    std::fwrite(buffer_.data(), 1, buffer_.size(), file_);
}

void TextOutput::flush() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size())
    throw std::runtime_error(std::string("write error: ") + std::strerror(errno));
  buffer_.clear();
  if (std::fflush(file_) != 0)
    throw std::runtime_error(std::string("write error: ") + std::strerror(errno));
}

} // namespace pilgrim
