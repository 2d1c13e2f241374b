// LOCAL STUB: exact codec for every mode, framing u32le size + raw pairs.
#include "pilgrim/timing_stream.h"

#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace pilgrim::timing {

double Spec::bound_of(const std::string &f) const {
  for (const auto &p : per_function)
    if (p.function == f)
      return p.bound;
  return bound;
}

const char *method_name(Method m) {
  static const char *n[] = {"none", "aggregate", "lossless",       "cfg",          "hist",
                            "pred", "zfp",       "pred-clustered", "zfp-clustered"};
  return n[static_cast<int>(m)];
}

bool parse_spec(const std::string &text, Spec &out, std::string &error) {
  Spec s;
  std::string mode = text, rest;
  size_t c = text.find_first_of(":,");
  if (c != std::string::npos) {
    mode = text.substr(0, c);
    rest = text.substr(c + 1);
  }
  int m = -1;
  for (int i = 0; i < 9; ++i)
    if (mode == method_name(static_cast<Method>(i)))
      m = i;
  if (m < 0) {
    error = "unknown mode '" + mode + "'";
    return false;
  }
  s.method = static_cast<Method>(m);
  if (s.lossy()) {
    char *e;
    s.bound = std::strtod(rest.c_str(), &e);
    if (e == rest.c_str() || s.bound <= 0 || (!s.absolute() && s.bound >= 1)) {
      error = "bad bound";
      return false;
    }
    rest = e;
    if (!rest.empty() && rest[0] == ',')
      rest = rest.substr(1);
    if (s.method == Method::Hist) {
      s.hist_bits = static_cast<int>(std::strtol(rest.c_str(), &e, 10));
      rest = e;
      if (!rest.empty() && rest[0] == ',')
        rest = rest.substr(1);
    }
  }
  while (!rest.empty()) {
    size_t eq = rest.find('='), comma = rest.find(',');
    if (eq == std::string::npos) {
      error = "bad per-function bound";
      return false;
    }
    FunctionBound fb;
    fb.function = rest.substr(0, eq);
    fb.bound = std::strtod(rest.c_str() + eq + 1, nullptr);
    s.per_function.push_back(fb);
    rest = comma == std::string::npos ? "" : rest.substr(comma + 1);
  }
  out = s;
  return true;
}

std::string spec_text(const Spec &s) {
  std::string t = method_name(s.method);
  char b[64];
  if (s.lossy()) {
    std::snprintf(b, sizeof b, ":%g", s.bound);
    t += b;
  }
  if (s.method == Method::Hist)
    t += "," + std::to_string(s.hist_bits);
  for (const auto &p : s.per_function) {
    std::snprintf(b, sizeof b, "=%g", p.bound);
    t += "," + p.function + b;
  }
  return t;
}

void encode_chunk(const Spec &, const std::vector<double> &, const ChunkView &c,
                  std::vector<uint8_t> &out) {
  for (size_t i = 0; i < c.n; ++i) {
    const int64_t v[2] = {c.start[i], c.end[i]};
    const uint8_t *p = reinterpret_cast<const uint8_t *>(v);
    out.insert(out.end(), p, p + 16);
  }
}

bool decode_chunk(const Spec &, const std::vector<double> &, const uint8_t *p, size_t size,
                  size_t n, const uint32_t *, int64_t *start, int64_t *end, std::string &error) {
  if (size != 16 * n) {
    error = "bad chunk size";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    std::memcpy(&start[i], p + 16 * i, 8);
    std::memcpy(&end[i], p + 16 * i + 8, 8);
  }
  return true;
}

bool decode_payload(const Spec &spec, const std::vector<double> &bounds, const uint8_t *p,
                    size_t size, size_t n, const uint32_t *group, int64_t *start, int64_t *end,
                    std::string &error) {
  size_t at = 0, done = 0;
  while (at < size) {
    if (size - at < 8) {
      error = "truncated chunk header";
      return false;
    }
    uint32_t len, calls;
    std::memcpy(&len, p + at, 4);
    std::memcpy(&calls, p + at + 4, 4);
    at += 8;
    if (len > size - at || calls > n - done) {
      error = "truncated chunk";
      return false;
    }
    if (!decode_chunk(spec, bounds, p + at, len, calls, group + done, start + done, end + done,
                      error))
      return false;
    at += len;
    done += calls;
  }
  if (done != n) {
    error = "has " + std::to_string(done) + " calls, the grammar " + std::to_string(n);
    return false;
  }
  return true;
}

bool StreamWriter::open(const std::string &spill_path, const Spec &spec, std::string &error) {
  spec_ = spec;
  start_.resize(kChunkCalls);
  end_.resize(kChunkCalls);
  group_.resize(kChunkCalls);
  path_ = spill_path;
  spill_ = std::fopen(spill_path.c_str(), "w+b");
  if (!spill_) {
    error = "cannot create " + spill_path;
    return false;
  }
  return true;
}

void StreamWriter::set_group_bound(uint32_t g, double b) {
  if (bound_of_group_.size() <= g)
    bound_of_group_.resize(g + 1);
  bound_of_group_[g] = b;
}

void StreamWriter::flush() {
  if (n_ == 0)
    return;
  encoded_.clear();
  ChunkView v{n_, start_.data(), end_.data(), group_.data()};
  encode_chunk(spec_, bound_of_group_, v, encoded_);
  const uint32_t head[2] = {static_cast<uint32_t>(encoded_.size()), static_cast<uint32_t>(n_)};
  std::fwrite(head, 1, 8, spill_);
  std::fwrite(encoded_.data(), 1, encoded_.size(), spill_);
  bytes_ += 8 + encoded_.size();
  calls_ += n_;
  ++chunks_;
  n_ = 0;
}

bool StreamWriter::finish(std::string &error) {
  flush();
  if (!spill_ || std::fflush(spill_) != 0) {
    error = "spill write failed";
    return false;
  }
  return true;
}

uint64_t StreamWriter::payload_size() const { return bytes_; }

bool StreamWriter::read_payload(uint64_t offset, uint8_t *buf, size_t n, std::string &error) const {
  if (::pread(fileno(spill_), buf, n, static_cast<off_t>(offset)) != static_cast<ssize_t>(n)) {
    error = "spill read failed";
    return false;
  }
  return true;
}

void StreamWriter::remove() {
  if (spill_) {
    std::fclose(spill_);
    spill_ = nullptr;
    ::unlink(path_.c_str());
  }
}

size_t StreamWriter::memory_bytes() const {
  return start_.capacity() * 8 + end_.capacity() * 8 + group_.capacity() * 4 + encoded_.capacity() +
         bound_of_group_.capacity() * 8;
}

StreamWriter::~StreamWriter() { remove(); }

} // namespace pilgrim::timing
