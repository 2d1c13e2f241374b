#include "timing_quality_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <sys/stat.h>
#include <vector>

#include "pilgrim/duration_text.h"
#include "pilgrim/timing_error.h"
#include "pilgrim/timing_quality.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::stats {

namespace {

struct RankQuality {
  std::string label; // "total" or the rank
  uint64_t calls = 0;
  uint64_t bytes = 0;        // the trace's timing bytes
  bool verified = false;     // compared with a verification copy
  TimesQuality q;            // in ticks
  double max_time_error = 0; // seconds
};

std::string number_text(double x, const char *format) {
  if (std::isnan(x))
    return "-";
  if (std::isinf(x))
    return "inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, format, x);
  return buf;
}

std::string db_text(double x) {
  if (std::isinf(x) && x > 0)
    return "exact";
  const std::string t = number_text(x, "%.1f");
  return t == "-" ? t : t + " dB";
}

void print_line(TextOutput &out, const RankQuality &r) {
  const double raw = 16.0 * static_cast<double>(r.calls);
  char buf[256];
  std::snprintf(
      buf, sizeof buf, "%-8s %12llu %14.0f %14llu %9s %10s %10s %10s %10s\n", r.label.c_str(),
      static_cast<unsigned long long>(r.calls), raw, static_cast<unsigned long long>(r.bytes),
      r.bytes ? number_text(raw / static_cast<double>(r.bytes), "%.2f").c_str() : "-",
      r.verified
          ? number_text(std::max(r.q.duration.max_relative, r.q.gap.max_relative), "%.3g").c_str()
          : "-",
      r.verified ? duration_text(r.max_time_error).c_str() : "-",
      r.verified ? db_text(r.q.duration.psnr()).c_str() : "-",
      r.verified ? db_text(r.q.gap.psnr()).c_str() : "-");
  out << buf;
}

bool exists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

} // namespace

namespace {

void print_quality(TextOutput &out, const TraceInput &input, bool per_rank);

} // namespace

void print_timing_quality(TextOutput &out, const TraceInput &input, bool per_rank) {
  try { // a rank's damaged times, another run's verification copy: one line naming the trace
    print_quality(out, input, per_rank);
  } catch (const TraceError &e) {
    rethrow_with_context(input.path, e);
  }
}

namespace {

void print_quality(TextOutput &out, const TraceInput &input, bool per_rank) {
  const reader::TraceFile &file = input.file;
  const uint8_t mode = file.header().timing_mode;
  if (!file.has_call_times()) {
    out << "# timing mode " << timing_mode_text(mode) << ": "
        << (mode == static_cast<uint8_t>(TimingMode::Aggregate) ? "per-signature statistics only, "
                                                                : "")
        << "no per-call times to measure; trace with PILGRIM_TIMING=lossless or a lossy "
           "per-call mode (README \"PILGRIM_TIMING\")\n";
    return;
  }
  // Every selected rank has a verification copy, or the errors are not shown.
  bool verified = true;
  std::string missing;
  for (uint32_t r = input.first_rank; r < input.end_rank && verified; ++r)
    if (!exists(verify_times_path(input.path, r))) {
      verified = false;
      missing = verify_times_path(input.path, r);
    }
  std::vector<RankQuality> ranks;
  RankQuality total;
  total.label = input.rank < 0 ? "total" : std::to_string(input.rank);
  total.verified = verified;
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r) {
    RankQuality q;
    q.label = std::to_string(r);
    q.verified = verified;
    std::vector<int64_t> start, end;
    file.call_ticks(r, start, end);
    q.calls = start.size();
    q.bytes = file.call_times_bytes(r);
    if (verified) {
      std::vector<int64_t> exact_start, exact_end;
      std::string error;
      if (!read_verify_times(verify_times_path(input.path, r), exact_start, exact_end, error))
        throw TraceError("rank " + std::to_string(r) + ": verification copy: " + error);
      if (exact_start.size() != start.size())
        throw TraceError("rank " + std::to_string(r) + ": the verification copy has " +
                         std::to_string(exact_start.size()) + " calls, the trace " +
                         std::to_string(start.size()) + ": it is another run's (" +
                         verify_times_path(input.path, r) + ")");
      q.q = times_quality(start, end, exact_start, exact_end);
      q.max_time_error = static_cast<double>(q.q.max_time_error) * file.seconds_per_tick(r);
    }
    total.calls += q.calls;
    total.bytes += q.bytes;
    total.q.add(q.q);
    total.max_time_error = std::max(total.max_time_error, q.max_time_error);
    ranks.push_back(std::move(q));
  }
  out << "# timing: " << file.header().timing_spec
      << " (every call's start and end); ratio: raw bytes (2 x 8-byte doubles per call) / the "
         "trace's timing bytes (the ranks' RANK_TIMING sections)\n";
  if (verified)
    out << "# against the verification copies (TRACE.verify.RANK.times): max_rel: the largest "
           "relative error of a duration or a gap (from the previous call's end to the start); "
           "max_abs: the largest error of a start or an end; PSNR of durations and of gaps "
           "(docs/FORMAT.md 7.10)\n";
  else
    out << "# errors and PSNR: no verification copy (" << missing
        << "); trace with PILGRIM_VERIFY=1 to measure them\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-8s %12s %14s %14s %9s %10s %10s %10s %10s\n", "# ranks",
                "calls", "raw_bytes", "timing_bytes", "ratio", "max_rel", "max_abs", "psnr_dur",
                "psnr_gap");
  out << buf;
  print_line(out, total);
  if (per_rank && input.rank < 0)
    for (const RankQuality &r : ranks)
      print_line(out, r);
}

} // namespace

} // namespace pilgrim::stats
