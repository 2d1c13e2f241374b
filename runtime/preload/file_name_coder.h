// The coded form of the file names of posix records (docs/FORMAT.md §8.6.1;
// model/include/pilgrim/file_name_decoder.h decodes it): a name is split into
// its text and its digit runs, and each digit run (a field) is stored as the
// caller's rank plus a constant, as the difference from the same field of the
// previous name with the same text (on this thread), or as its value, with
// its zero padding. So `ckpt-0007-rank12.dat`, written by every rank at every
// step, codes the same on every rank and at every step after the first.
//
// Header-only and free of MPI (the unit tests include it). One coder per
// thread: the state follows the thread's records in order. Allocates only for
// a name longer, or text not seen, before: no allocation for a checkpoint
// written again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace pilgrim::rt {

// The coded form's bytes (FORMAT.md §8.6.1).
namespace file_name {
constexpr char kMark = '\x01';         // starts a field, or (doubled) stands for itself
constexpr size_t kMaxFieldDigits = 18; // longer digit runs stay text (below 10^18)
constexpr unsigned kModeLiteral = 0;   // the value
constexpr unsigned kModeRank = 1;      // the caller's world rank + x
constexpr unsigned kModePrevious = 2;  // the same field of the previous name + x
} // namespace file_name

class FileNameCoder {
public:
  // Appends the coded form of `name` (not NULL), named by a thread of the
  // process of world rank `rank`, to `out`; the coder remembers it.
  void code(const char *name, int64_t rank, std::string &out) {
    split(name);
    std::vector<Field> &last = last_[key_]; // allocates only for text not seen before
    const bool has_last = last.size() == runs_.size();
    if (!has_last)
      last.assign(runs_.size(), Field{});
    size_t at = 0;
    for (size_t i = 0; i < runs_.size(); ++i) {
      const Run &r = runs_[i];
      append_text(name + at, r.begin - at, out);
      at = r.begin + r.len;
      Field &f = last[i];
      // The width: 0 (none) where the run has no leading zero, else its
      // length; the previous name's where that prints the run alike (so
      // 0999 then 1000 keep width 4).
      const uint64_t natural = digits(r.value);
      uint64_t width = natural == r.len ? 0 : r.len;
      if (has_last && (f.width == r.len || (natural == r.len && f.width <= r.len)))
        width = f.width;
      unsigned mode;
      int64_t x;
      if (has_last && f.mode == file_name::kModeRank && r.value - rank == f.x) {
        mode = file_name::kModeRank;
        x = f.x;
      } else if (has_last) {
        mode = file_name::kModePrevious;
        x = r.value - f.value;
      } else if (r.value == rank) {
        mode = file_name::kModeRank;
        x = 0;
      } else {
        mode = file_name::kModeLiteral;
        x = r.value;
      }
      f = Field{r.value, x, width, mode};
      out.push_back(file_name::kMark);
      append_varint(width + 2, out);
      const uint64_t zz = (static_cast<uint64_t>(x) << 1) ^ static_cast<uint64_t>(x >> 63);
      append_varint(((zz << 2) | mode) + 1, out);
    }
    append_text(name + at, std::char_traits<char>::length(name + at), out);
  }

  static void append_varint(uint64_t v, std::string &out) {
    while (v >= 0x80) {
      out.push_back(static_cast<char>((v & 0x7f) | 0x80));
      v >>= 7;
    }
    out.push_back(static_cast<char>(v));
  }

private:
  struct Run {
    size_t begin, len;
    int64_t value;
  };
  struct Field {
    int64_t value = 0;
    int64_t x = 0;
    uint64_t width = 0;
    unsigned mode = file_name::kModeLiteral;
  };

  static uint64_t digits(int64_t v) {
    uint64_t n = 1;
    for (; v >= 10; v /= 10)
      ++n;
    return n;
  }

  // Text, with the mark doubled.
  static void append_text(const char *p, size_t n, std::string &out) {
    for (size_t i = 0; i < n; ++i) {
      out.push_back(p[i]);
      if (p[i] == file_name::kMark)
        out.push_back(file_name::kMark);
    }
  }

  // runs_: the name's fields; key_: its text parts, each field a NUL.
  void split(const char *name) {
    runs_.clear();
    key_.clear();
    size_t i = 0;
    while (name[i] != '\0') {
      if (name[i] < '0' || name[i] > '9') {
        key_.push_back(name[i++]);
        continue;
      }
      size_t j = i;
      int64_t v = 0;
      while (name[j] >= '0' && name[j] <= '9') {
        if (j - i < file_name::kMaxFieldDigits)
          v = v * 10 + (name[j] - '0');
        ++j;
      }
      if (j - i > file_name::kMaxFieldDigits) {
        key_.append(name + i, j - i);
      } else {
        runs_.push_back(Run{i, j - i, v});
        key_.push_back('\0');
      }
      i = j;
    }
  }

  std::unordered_map<std::string, std::vector<Field>> last_;
  std::vector<Run> runs_;
  std::string key_;
};

} // namespace pilgrim::rt
