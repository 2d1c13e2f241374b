#include "pilgrim/trace_error.h"

#include "pilgrim/byte_io.h"

namespace pilgrim {

namespace {

// what() must stay one line whatever the caller passed.
std::string one_line(const std::string &message) {
  std::string out = message;
  for (char &c : out)
    if (c == '\n' || c == '\r')
      c = ' ';
  return out;
}

} // namespace

TraceError::TraceError(const std::string &message) : std::runtime_error(one_line(message)) {}

std::string sanitize_for_message(std::string_view text, size_t max_chars) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  size_t shown = 0;
  for (char ch : text) {
    if (shown == max_chars) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out.push_back(static_cast<char>(c));
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
    ++shown;
  }
  return out;
}

void rethrow_with_context(const std::string &context, const TraceError &e) {
  throw TraceError(context + ": " + e.what());
}

void ByteReader::fail_at(const std::string &message, size_t offset) const {
  throw TraceError(message + " at byte " + std::to_string(offset));
}

} // namespace pilgrim
