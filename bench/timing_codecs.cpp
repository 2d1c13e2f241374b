// The per-call timing codecs on a tick stream: per mode, the compression
// ratio of durations and of gaps against raw 8-byte doubles per value, PSNR,
// the largest relative and absolute errors, and the encoding time per call.
//
//   timing_codecs [--input FILE [--groups FILE]] [--trace TRACE --rank R]
//                 [--synthetic KIND] [--calls N]
//                 [--modes M1;M2;...] [--tick-ns NS] [--encode-only]
//                 [--format-version V]
//
// FILE: raw little-endian int64 (start, end) pairs in ticks, one per call;
// --groups: raw little-endian uint32, one group (signature) per call
// (default: all calls in group 0). --trace TRACE --rank R: the rank's exact
// ticks from the verification copy TRACE.verify.R.times (PILGRIM_VERIFY=1)
// and each call's group = its signature, as the runtime groups them
// (model/call_times.h call_entries), and the rank's ns per tick. Without --input the stream is
// synthetic (timing_synthetic.h; default "stencil", 10^6 calls). zfp's TOL is in seconds and
// becomes ticks with --tick-ns (default 1). --encode-only encodes each mode once and prints its
// size and time only (for instruction counts: valgrind --tool=callgrind
// --toggle-collect='pilgrim::timing::encode_chunk*').
// --format-version V: the chunk layouts of format version V (default the
// current one), to compare a codec's layouts on one stream.
//
// Per-stream sizes: a chunk codes gaps and durations together, so the size
// of the durations is measured as size(stream with every gap 0) minus
// size(stream with every gap and duration 0), and likewise for the gaps.
// PSNR = 20 log10(range / RMSE) over one stream's decoded values, range =
// max - min of its exact values (docs/FORMAT.md).
#include "pilgrim/call_times.h"
#include "pilgrim/section_compression.h"
#include "pilgrim/timing_chunk.h"
#include "pilgrim/timing_error.h"
#include "pilgrim/timing_synthetic.h"
#include "pilgrim/trace_reader.h"
#include "pilgrim/varint.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <unordered_map>
#include <vector>

using namespace pilgrim::timing;

namespace {

constexpr const char *kDefaultModes =
    "lossless;cfg:0.1;hist:0.1,8;pred:0.1;pred-clustered:0.1;zfp:1e-5;zfp-clustered:1e-5;"
    "zfp:1e-3;zfp-clustered:1e-3";

[[noreturn]] void die(const std::string &msg) {
  std::fprintf(stderr, "timing_codecs: %s\n", msg.c_str());
  std::exit(2);
}

template <class T> std::vector<T> read_raw(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    die("cannot read " + path);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() % sizeof(T))
    die(path + ": size " + std::to_string(bytes.size()) + " is not a multiple of " +
        std::to_string(sizeof(T)));
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), bytes.size()); // little-endian host
  return v;
}

struct Encoded {
  size_t bytes = 0;
  double seconds = 0;
};

Encoded encode_all(const Spec &spec, const std::vector<double> &bounds, const TickStream &s,
                   std::vector<std::vector<uint8_t>> *chunks) {
  Encoded e;
  std::vector<uint8_t> out;
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t from = 0; from < s.size(); from += kChunkCalls) {
    const size_t n = std::min<size_t>(kChunkCalls, s.size() - from);
    out.clear();
    encode_chunk(spec, bounds, {n, &s.start[from], &s.end[from], &s.group[from]}, out);
    e.bytes += out.size() + 2 * pilgrim::varint_size(out.size()); // + framing
    if (chunks)
      chunks->push_back(out);
  }
  e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return e;
}

// The stream with its gaps (keep_gaps false) or durations zeroed.
TickStream only(const TickStream &s, bool keep_gaps, bool keep_durations) {
  TickStream o = s;
  int64_t t = s.size() ? s.start[0] : 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const int64_t gap = i ? s.start[i] - s.end[i - 1] : 0;
    t += keep_gaps ? gap : 0;
    o.start[i] = t;
    t += keep_durations ? s.end[i] - s.start[i] : 0;
    o.end[i] = t;
  }
  return o;
}

struct Quality {
  double psnr = 0, max_rel = 0, max_abs_time = 0;
};

Quality quality(const std::vector<double> &exact, const std::vector<double> &got) {
  Quality q;
  if (exact.empty())
    return q;
  double lo = exact[0], hi = exact[0], se = 0;
  for (size_t i = 0; i < exact.size(); ++i) {
    lo = std::min(lo, exact[i]);
    hi = std::max(hi, exact[i]);
    const double err = std::fabs(got[i] - exact[i]);
    se += err * err;
    if (err > 0)
      q.max_rel = std::max(q.max_rel, exact[i] == 0 ? HUGE_VAL : err / std::fabs(exact[i]));
  }
  const double rmse = std::sqrt(se / static_cast<double>(exact.size()));
  q.psnr = rmse == 0 ? HUGE_VAL : 20 * std::log10((hi - lo) / rmse);
  return q;
}

// Lossless size of a value stream: zigzag varints, zstd level 3.
size_t lossless_size(const std::vector<int64_t> &v) {
  std::string raw;
  for (int64_t x : v) {
    uint8_t buf[pilgrim::kMaxVarintBytes], *p = buf;
    pilgrim::put_svarint(p, x);
    raw.append(reinterpret_cast<char *>(buf), static_cast<size_t>(p - buf));
  }
  return pilgrim::zstd_compress(raw, 3).size();
}

} // namespace

int main(int argc, char **argv) {
  std::string input, groups, trace_path, kind = "stencil", modes = kDefaultModes;
  size_t ncalls = 1'000'000;
  double tick_ns = 1;
  bool encode_only = false;
  long rank = -1, format_version = pilgrim::kFormatVersion;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        die(a + " needs a value");
      return argv[++i];
    };
    if (a == "--input")
      input = value();
    else if (a == "--groups")
      groups = value();
    else if (a == "--trace")
      trace_path = value();
    else if (a == "--rank")
      rank = std::stol(value());
    else if (a == "--synthetic")
      kind = value();
    else if (a == "--calls")
      ncalls = std::stoull(value());
    else if (a == "--modes")
      modes = value();
    else if (a == "--encode-only")
      encode_only = true;
    else if (a == "--tick-ns")
      tick_ns = std::stod(value());
    else if (a == "--format-version")
      format_version = std::stol(value());
    else
      die("unknown option " + a + " (see the comment at the top of bench/timing_codecs.cpp)");
  }
  TickStream s;
  if (!trace_path.empty()) {
    if (rank < 0)
      die("--trace needs --rank R");
    try {
      const pilgrim::Trace trace = pilgrim::read_trace(trace_path);
      const auto r = static_cast<uint32_t>(rank);
      std::string error;
      if (!pilgrim::read_verify_times(pilgrim::verify_times_path(trace_path, r), s.start, s.end,
                                      error))
        die(error);
      s.group = pilgrim::call_entries(trace, r);
      if (s.group.size() != s.size())
        die("the trace has " + std::to_string(s.group.size()) + " calls on rank " +
            std::to_string(r) + ", its verification copy " + std::to_string(s.size()));
      tick_ns = pilgrim::seconds_per_tick(trace, r) * 1e9;
    } catch (const std::exception &e) {
      die(e.what());
    }
    input = trace_path + " rank " + std::to_string(rank);
  } else if (!input.empty()) {
    const std::vector<int64_t> pairs = read_raw<int64_t>(input);
    if (pairs.size() % 2)
      die(input + " holds an odd number of int64 values");
    for (size_t i = 0; i < pairs.size(); i += 2) {
      s.start.push_back(pairs[i]);
      s.end.push_back(pairs[i + 1]);
    }
    s.group = groups.empty() ? std::vector<uint32_t>(s.size(), 0) : read_raw<uint32_t>(groups);
    if (s.group.size() != s.size())
      die("--groups holds " + std::to_string(s.group.size()) + " groups for " +
          std::to_string(s.size()) + " calls");
  } else if (!synthetic_stream(kind, ncalls, 1, s)) {
    die("unknown synthetic stream '" + kind + "'");
  }
  const size_t n = s.size();
  uint32_t ngroups = 0;
  for (uint32_t g : s.group)
    ngroups = std::max(ngroups, g + 1);
  std::vector<double> exact_dur(n), exact_gap(n ? n - 1 : 0);
  std::vector<int64_t> dur_ticks(n), gap_ticks(exact_gap.size()), interval_ticks(n);
  std::unordered_map<uint32_t, int64_t> last_start;
  for (size_t i = 0; i < n; ++i) {
    dur_ticks[i] = s.end[i] - s.start[i];
    exact_dur[i] = static_cast<double>(dur_ticks[i]);
    if (i) {
      gap_ticks[i - 1] = s.start[i] - s.end[i - 1];
      exact_gap[i - 1] = static_cast<double>(gap_ticks[i - 1]);
    }
    auto it = last_start.find(s.group[i]);
    interval_ticks[i] = it == last_start.end() ? s.start[i] - s.start[0] : s.start[i] - it->second;
    last_start[s.group[i]] = s.start[i];
  }
  std::printf("stream: %s, %zu calls, %u groups; raw: 8-byte doubles, 16 B/call\n",
              input.empty() ? kind.c_str() : input.c_str(), n, ngroups);
  std::printf("kept value, lossless varint+zstd: gap since the previous end %.3f B/call, "
              "paper's interval since the same signature %.3f B/call\n",
              static_cast<double>(lossless_size(gap_ticks)) / static_cast<double>(n),
              static_cast<double>(lossless_size(interval_ticks)) / static_cast<double>(n));
  std::printf("%-22s %8s %8s %8s %9s %9s %10s %10s %12s %9s\n", "mode", "CR", "CR dur", "CR gap",
              "PSNR dur", "PSNR gap", "relerr dur", "relerr gap", "abs err tick", "enc ns");
  const TickStream zero = only(s, false, false), dur_only = only(s, false, true),
                   gap_only = only(s, true, false);
  size_t from = 0;
  while (from <= modes.size()) {
    size_t to = modes.find(';', from);
    if (to == std::string::npos)
      to = modes.size();
    const std::string text = modes.substr(from, to - from);
    from = to + 1;
    if (text.empty())
      continue;
    Spec spec;
    std::string error;
    if (!parse_spec(text, spec, error) || !spec.per_call())
      die(error.empty() ? text + " keeps no per-call times" : error);
    if (format_version < pilgrim::kFirstRankTimingVersion ||
        format_version > pilgrim::kFormatVersion)
      die("--format-version " + std::to_string(format_version) + ": per-call timing has versions " +
          std::to_string(pilgrim::kFirstRankTimingVersion) + " to " +
          std::to_string(pilgrim::kFormatVersion));
    spec.format_version = static_cast<uint16_t>(format_version);
    std::vector<double> bounds(ngroups, spec.bound);
    if (spec.absolute())
      for (double &b : bounds)
        b = spec.bound * 1e9 / tick_ns;
    std::vector<std::vector<uint8_t>> chunks;
    const Encoded all = encode_all(spec, bounds, s, encode_only ? nullptr : &chunks);
    if (encode_only) {
      std::printf("%-22s %8.2f %53s %9.1f\n", text.c_str(),
                  16.0 * static_cast<double>(n) / static_cast<double>(all.bytes), "",
                  all.seconds * 1e9 / static_cast<double>(n));
      continue;
    }
    const size_t z = encode_all(spec, bounds, zero, nullptr).bytes;
    const size_t d = encode_all(spec, bounds, dur_only, nullptr).bytes;
    const size_t g = encode_all(spec, bounds, gap_only, nullptr).bytes;
    std::vector<int64_t> start(n), end(n);
    size_t at = 0;
    for (const std::vector<uint8_t> &c : chunks) {
      const size_t k = std::min<size_t>(kChunkCalls, n - at);
      if (!decode_chunk(spec, bounds, c.data(), c.size(), k, &s.group[at], &start[at], &end[at],
                        error))
        die(text + ": " + error);
      at += k;
    }
    std::vector<double> got_dur(n), got_gap(exact_gap.size());
    double abs_err = 0;
    for (size_t i = 0; i < n; ++i) {
      got_dur[i] = static_cast<double>(end[i] - start[i]);
      if (i)
        got_gap[i - 1] = static_cast<double>(start[i] - end[i - 1]);
      abs_err = std::max({abs_err, std::fabs(static_cast<double>(start[i] - s.start[i])),
                          std::fabs(static_cast<double>(end[i] - s.end[i]))});
    }
    const Quality qd = quality(exact_dur, got_dur), qg = quality(exact_gap, got_gap);
    const double raw = 8.0 * static_cast<double>(n);
    auto ratio = [&](size_t bytes, size_t base) {
      return bytes > base ? raw / static_cast<double>(bytes - base) : HUGE_VAL;
    };
    std::printf("%-22s %8.2f %8.2f %8.2f %9.2f %9.2f %10.4f %10.4f %12.0f %9.1f\n", text.c_str(),
                2 * raw / static_cast<double>(all.bytes), ratio(d, z), ratio(g, z), qd.psnr,
                qg.psnr, qd.max_rel, qg.max_rel, abs_err,
                all.seconds * 1e9 / static_cast<double>(n));
  }
  return 0;
}
