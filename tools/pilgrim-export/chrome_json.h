// Trace-event JSON text: escaped strings, times as microseconds with three
// decimals (nanoseconds exactly, no rounding of sums), one event object, and
// the document streamed event by event (docs/EXPORT.md, "Chrome / Perfetto").
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "text_output.h"

namespace pilgrim::exporter {

// `s` as a JSON string, quotes included: \" \\ \b \f \n \r \t, other control
// characters as \u00XX, bytes that are not valid UTF-8 as \u00XX of their
// value (Latin-1), so that the document is valid whatever the trace holds.
std::string json_string(std::string_view s);

// Nanoseconds as microseconds with exactly three decimals: 1234567 ->
// "1234.567", -5 -> "-0.005".
std::string json_micros(int64_t ns);

// One JSON object, built field by field: {"k":v,...}.
class JsonObject {
public:
  JsonObject &text(std::string_view key, std::string_view value);
  JsonObject &integer(std::string_view key, int64_t value);
  JsonObject &micros(std::string_view key, int64_t ns);
  // `json` is already JSON (an object, a number, true).
  JsonObject &raw(std::string_view key, std::string_view json);
  bool empty() const { return text_.empty(); }
  // The object's text; the builder may be reused after clear().
  std::string str() const { return "{" + text_ + "}"; }
  void clear() { text_.clear(); }

private:
  void key(std::string_view k);
  std::string text_;
};

// The document {"displayTimeUnit":"ns","metadata":{...},"traceEvents":[...]}
// written as it goes to a file or stdout ("-").
class ChromeDocument {
public:
  // Opens `path`; false with a one-line error.
  bool open(const std::string &path, std::string &error);
  ~ChromeDocument();
  void begin(const JsonObject &metadata);
  void event(const JsonObject &event);
  // Closes the array and the object and flushes; false with a one-line error
  // on a write error (a full disk).
  bool end(std::string &error);

private:
  std::string path_;
  std::FILE *file_ = nullptr;
  std::unique_ptr<TextOutput> out_;
  bool first_ = true;
};

} // namespace pilgrim::exporter
