#include "chrome_json.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <memory>

namespace pilgrim::exporter {

namespace {

// The length of the valid UTF-8 sequence at s[i], 0 when it is not one.
size_t utf8_length(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  const size_t n = c >= 0xF0 ? (c <= 0xF4 ? 4 : 0) : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
  if (n == 0 || i + n > s.size())
    return 0;
  for (size_t k = 1; k < n; ++k)
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
  // Overlong three- and four-byte forms, surrogates, beyond U+10FFFF.
  if ((c == 0xE0 && byte(i + 1) < 0xA0) || (c == 0xED && byte(i + 1) >= 0xA0) ||
      (c == 0xF0 && byte(i + 1) < 0x90) || (c == 0xF4 && byte(i + 1) >= 0x90))
    return 0;
  return n;
}

void append_u(std::string &out, unsigned v) {
  static const char hex[] = "0123456789abcdef";
  out += "\\u00";
  out += hex[(v >> 4) & 15];
  out += hex[v & 15];
}

} // namespace

std::string json_string(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      const size_t n = utf8_length(s, i);
      if (n == 0) {
        append_u(out, c);
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c < 0x20 || c == 0x7F)
        append_u(out, c);
      else
        out += static_cast<char>(c);
    }
    ++i;
  }
  out += '"';
  return out;
}

std::string json_micros(int64_t ns) {
  const bool negative = ns < 0;
  const uint64_t v = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  std::string frac = std::to_string(v % 1000);
  frac.insert(0, 3 - frac.size(), '0');
  return (negative ? "-" : "") + std::to_string(v / 1000) + "." + frac;
}

void JsonObject::key(std::string_view k) {
  if (!text_.empty())
    text_ += ',';
  text_ += json_string(k);
  text_ += ':';
}

JsonObject &JsonObject::text(std::string_view k, std::string_view value) {
  key(k);
  text_ += json_string(value);
  return *this;
}

JsonObject &JsonObject::integer(std::string_view k, int64_t value) {
  key(k);
  text_ += std::to_string(value);
  return *this;
}

JsonObject &JsonObject::micros(std::string_view k, int64_t ns) {
  key(k);
  text_ += json_micros(ns);
  return *this;
}

JsonObject &JsonObject::raw(std::string_view k, std::string_view json) {
  key(k);
  text_.append(json);
  return *this;
}

bool ChromeDocument::open(const std::string &path, std::string &error) {
  path_ = path;
  file_ = path == "-" ? stdout : std::fopen(path.c_str(), "wb");
  if (!file_) {
    error = "--chrome: cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  out_ = std::make_unique<TextOutput>(file_);
  return true;
}

ChromeDocument::~ChromeDocument() {
  out_.reset(); // writes what is left unless an error is on its way out
  if (file_ && file_ != stdout)
    std::fclose(file_);
}

void ChromeDocument::begin(const JsonObject &metadata) {
  *out_ << "{\"displayTimeUnit\":\"ns\",\"metadata\":" << metadata.str() << ",\"traceEvents\":[";
}

void ChromeDocument::event(const JsonObject &event) {
  *out_ << (first_ ? "\n" : ",\n") << event.str();
  first_ = false;
}

bool ChromeDocument::end(std::string &error) {
  try {
    *out_ << "\n]}\n";
    out_->flush();
  } catch (const std::exception &) {
    error = "--chrome: cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  if (file_ != stdout && std::fflush(file_) != 0) {
    error = "--chrome: cannot write " + path_ + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

} // namespace pilgrim::exporter
