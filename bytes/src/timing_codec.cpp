#include "pilgrim/timing_codec.h"

#include <cmath>

#include "pilgrim/byte_io.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

constexpr double kCodesPerOctave = 1024.0;

// qtiming := u8(kind) [u16 mean, u16 sd, u16 min, u16 max]
//   kind 0: no samples, no codes; 1: n = count; 2: n = count - 1;
//   3: varint(n) precedes the codes; 4: varint(d) precedes them, n = count - d
//   (a merged entry's intervals: one fewer than calls on each rank);
//   5 (version 9): n = 1 and one code, the sample's, follows: mean, min and
//   max are that value and sd is 0. Whether it applies depends on n alone,
//   so a file's size still depends only on its calls.
void put_timing(ByteWriter &w, const TimingStats &t, uint64_t count, uint16_t version) {
  if (t.n == 0) {
    w.u8(0);
    return;
  }
  if (t.n == 1 && version >= kFirstSingleSampleTimingVersion) {
    w.u8(5);
    w.u16le(quantize_seconds(t.mean));
    return;
  }
  if (t.n == count) {
    w.u8(1);
  } else if (count > 0 && t.n == count - 1) {
    w.u8(2);
  } else if (t.n < count && count - t.n < t.n) {
    w.u8(4);
    w.varint(count - t.n);
  } else {
    w.u8(3);
    w.varint(t.n);
  }
  w.u16le(quantize_seconds(t.mean));
  w.u16le(quantize_seconds(stddev(t)));
  w.u16le(quantize_seconds(t.min));
  w.u16le(quantize_seconds(t.max));
}

TimingStats get_timing(ByteReader &r, uint64_t count, uint16_t version) {
  TimingStats t;
  const uint8_t kind = r.u8();
  switch (kind) {
  case 0:
    return t;
  case 1:
    t.n = count;
    break;
  case 2:
    if (count == 0)
      r.fail("timing kind 2 (count - 1 samples) for an entry with count 0");
    t.n = count - 1;
    break;
  case 3:
    t.n = r.varint();
    break;
  case 4: {
    const uint64_t d = r.varint();
    if (d > count)
      r.fail("timing kind 4 with " + std::to_string(d) + " fewer samples than the " +
             std::to_string(count) + " calls");
    t.n = count - d;
    break;
  }
  case 5:
    if (version < kFirstSingleSampleTimingVersion)
      r.fail("unknown timing kind 5 (format version " + std::to_string(version) +
             " has kinds 0 to 4)");
    if (count == 0)
      r.fail("timing kind 5 (one sample) for an entry with count 0");
    t.n = 1;
    t.mean = t.min = t.max = dequantize_seconds(r.u16le());
    return t;
  default:
    r.fail("unknown timing kind " + std::to_string(kind));
  }
  t.mean = dequantize_seconds(r.u16le());
  const double sd = dequantize_seconds(r.u16le());
  t.min = dequantize_seconds(r.u16le());
  t.max = dequantize_seconds(r.u16le());
  t.m2 = t.n > 1 ? sd * sd * static_cast<double>(t.n - 1) : 0.0;
  if (t.n == 0)
    t = TimingStats{};
  return t;
}

} // namespace

uint16_t quantize_seconds(double seconds) {
  const double ns = seconds * 1e9;
  if (!(ns >= 0.5)) // also NaN
    return 0;
  if (ns < 1.0)
    return 1;
  const double c = 1.0 + std::nearbyint(kCodesPerOctave * std::log2(ns));
  return c >= 65535.0 ? 65535 : static_cast<uint16_t>(c);
}

double dequantize_seconds(uint16_t code) {
  if (code == 0)
    return 0.0;
  return std::exp2(static_cast<double>(code - 1) / kCodesPerOctave) * 1e-9;
}

TimingStats quantize_timing(const TimingStats &t) {
  if (t.n == 0)
    return TimingStats{};
  TimingStats q;
  q.n = t.n;
  q.mean = dequantize_seconds(quantize_seconds(t.mean));
  const double sd = dequantize_seconds(quantize_seconds(stddev(t)));
  q.m2 = t.n > 1 ? sd * sd * static_cast<double>(t.n - 1) : 0.0;
  q.min = dequantize_seconds(quantize_seconds(t.min));
  q.max = dequantize_seconds(quantize_seconds(t.max));
  return q;
}

bool has_timing(const std::vector<CstEntry> &cst) {
  for (const CstEntry &e : cst)
    if (e.duration.n != 0 || e.interval.n != 0)
      return true;
  return false;
}

std::string serialize_timing(const std::vector<CstEntry> &cst, uint16_t version) {
  std::string out;
  out.reserve(4 + cst.size() * 18);
  ByteWriter w(out);
  w.varint(cst.size());
  for (const CstEntry &e : cst) {
    put_timing(w, e.duration, e.count, version);
    put_timing(w, e.interval, e.count, version);
  }
  return out;
}

void apply_timing(std::vector<CstEntry> &cst, std::string_view payload, uint16_t version) {
  ByteReader r(payload);
  const uint64_t n = r.varint();
  if (n != cst.size())
    r.fail("timing for " + std::to_string(n) + " CST entries, the CST has " +
           std::to_string(cst.size()));
  for (CstEntry &e : cst) {
    e.duration = get_timing(r, e.count, version);
    e.interval = get_timing(r, e.count, version);
  }
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes");
}

} // namespace pilgrim
