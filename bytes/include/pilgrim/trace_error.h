// TraceError: the one exception type every reader and writer path of the
// format library throws for a bad trace file, a malformed payload or an I/O
// failure. what() is always one line (no '\n'), suitable for
// `pilgrim-dump: <what()>`.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace pilgrim {

class TraceError : public std::runtime_error {
public:
  explicit TraceError(const std::string &message);
};

// Makes text that came from a (possibly hostile) file safe to embed in a
// one-line message: printable ASCII only (others as \xNN), at most
// `max_chars` characters (then "...").
std::string sanitize_for_message(std::string_view text, size_t max_chars = 64);

// Rethrows `e` with "context: " prepended to its message.
[[noreturn]] void rethrow_with_context(const std::string &context, const TraceError &e);

} // namespace pilgrim
