// Decoding one coded file name (docs/FORMAT.md §8.6.1), with the state it
// depends on. Self-contained (the standard library only): the model's
// FileNameDecoder (file_name_decoder.h) uses it, and pilgrim-proxygen copies
// this file into every proxy that replays POSIX I/O, whose decoding at run
// time must be the model's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pilgrim {
namespace file_name_form {

// Per thread and key (the name's text with each field a NUL byte), the
// field values of the last name.
using State = std::map<std::pair<uint64_t, std::string>, std::vector<int64_t>>;

inline bool read_varint(const std::string &s, std::size_t &at, uint64_t &v) {
  v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (at >= s.size())
      return false;
    const uint8_t b = static_cast<uint8_t>(s[at++]);
    v |= static_cast<uint64_t>(b & 0x7f) << shift;
    if (!(b & 0x80))
      return true;
  }
  return false;
}

// The name `coded` stands for, made by thread `thread` of world rank
// `rank`, into `name`; remembered in `state`. nullptr, or what is wrong
// (then `state` is unchanged).
inline const char *decode(State &state, int64_t rank, uint64_t thread, const std::string &coded,
                          std::string &name) {
  struct Field {
    uint64_t width;
    unsigned mode;
    int64_t x;
    std::size_t at; // where in the text its digits go
  };
  std::string text, key;
  std::vector<Field> fields;
  for (std::size_t i = 0; i < coded.size();) {
    const char c = coded[i++];
    if (c != '\x01' || (i < coded.size() && coded[i] == '\x01')) {
      if (c == '\x01') // 0x01 0x01: the byte 0x01
        ++i;
      text.push_back(c);
      key.push_back(c);
      continue;
    }
    uint64_t width = 0, code = 0;
    if (!read_varint(coded, i, width) || !read_varint(coded, i, code))
      return "a coded file name ends inside a field";
    if (width < 2 || width - 2 > 64 || code < 1)
      return "a coded file name has a field out of range";
    const uint64_t zz = (code - 1) >> 2;
    const unsigned mode = static_cast<unsigned>((code - 1) & 3);
    if (mode == 3)
      return "a coded file name has a field of the reserved mode 3";
    fields.push_back(Field{width - 2, mode,
                           static_cast<int64_t>(zz >> 1) ^ -static_cast<int64_t>(zz & 1),
                           text.size()});
    key.push_back('\0');
  }
  std::vector<int64_t> values(fields.size());
  const auto last = state.find({thread, key});
  name.clear();
  std::size_t at = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const Field &f = fields[i];
    int64_t base = 0; // mode 0: literal
    if (f.mode == 1) {
      base = rank;
    } else if (f.mode == 2) {
      if (last == state.end() || last->second.size() != fields.size())
        return "a coded file name refers to a previous name that was never made";
      base = last->second[i];
    }
    const int64_t v =
        static_cast<int64_t>(static_cast<uint64_t>(base) + static_cast<uint64_t>(f.x));
    if (v < 0)
      return "a coded file name has a negative field";
    values[i] = v;
    name.append(text, at, f.at - at);
    at = f.at;
    const std::string digits = std::to_string(v);
    if (digits.size() < f.width)
      name.append(f.width - digits.size(), '0');
    name += digits;
  }
  name.append(text, at, std::string::npos);
  state[{thread, std::move(key)}] = std::move(values);
  return nullptr;
}

} // namespace file_name_form
} // namespace pilgrim
