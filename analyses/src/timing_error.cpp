#include "pilgrim/timing_error.h"

#include "pilgrim/call_times.h"
#include "pilgrim/timing_chunk.h"
#include "pilgrim/trace_error.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace pilgrim {

bool read_verify_times(const std::string &path, std::vector<int64_t> &start,
                       std::vector<int64_t> &end, std::string &error) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": cannot open: " + std::strerror(errno);
    return false;
  }
  start.clear();
  end.clear();
  uint8_t b[16];
  size_t n;
  while ((n = std::fread(b, 1, sizeof b, f)) == sizeof b) {
    uint64_t s = 0, e = 0;
    for (int i = 0; i < 8; ++i) {
      s |= static_cast<uint64_t>(b[i]) << (8 * i);
      e |= static_cast<uint64_t>(b[8 + i]) << (8 * i);
    }
    start.push_back(static_cast<int64_t>(s));
    end.push_back(static_cast<int64_t>(e));
  }
  std::fclose(f);
  if (n != 0) {
    error = path + ": truncated (" + std::to_string(start.size() * 16 + n) +
            " bytes, not a multiple of 16)";
    return false;
  }
  return true;
}

void TimingError::add(const TimingError &o) {
  if (outside == 0 && o.outside > 0)
    first_outside = calls + o.first_outside;
  calls += o.calls;
  max_relative = std::max(max_relative, o.max_relative);
  max_absolute_ticks = std::max(max_absolute_ticks, o.max_absolute_ticks);
  sum_squared += o.sum_squared;
  min_duration = std::min(min_duration, o.min_duration);
  max_duration = std::max(max_duration, o.max_duration);
  outside += o.outside;
}

namespace {

double relative(int64_t decoded, int64_t exact) {
  if (decoded == exact)
    return 0;
  return std::fabs(static_cast<double>(decoded) - static_cast<double>(exact)) /
         std::max(1.0, std::fabs(static_cast<double>(exact)));
}

double absolute(int64_t a, int64_t b) {
  return std::fabs(static_cast<double>(a) - static_cast<double>(b));
}

} // namespace

bool compare_times(const timing::Spec &spec, const std::vector<double> &bound_of_call,
                   const std::vector<int64_t> &start, const std::vector<int64_t> &end,
                   const std::vector<int64_t> &exact_start, const std::vector<int64_t> &exact_end,
                   TimingError &out, std::string &error) {
  const size_t n = exact_start.size();
  if (start.size() != n || end.size() != n || exact_end.size() != n || bound_of_call.size() != n) {
    error = "the trace has " + std::to_string(start.size()) +
            " calls with times, the verification copy " + std::to_string(n);
    return false;
  }
  out = TimingError{};
  out.calls = n;
  out.first_outside = n;
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = exact_end[i] - exact_start[i], dd = end[i] - start[i];
    // The gap from the decoded previous end (the codecs' closed loop); a
    // chunk's first start is exact (gap 0).
    const bool first = i % timing::kChunkCalls == 0;
    const double g = first ? 0 : absolute(exact_start[i], end[i - 1]);
    const double es = absolute(start[i], exact_start[i]), ee = absolute(end[i], exact_end[i]);
    const double ed = absolute(dd, d);
    out.max_relative = std::max(out.max_relative, relative(dd, d));
    if (es > 0)
      out.max_relative = std::max(out.max_relative, g > 0 ? es / g : es);
    out.max_absolute_ticks =
        std::max(out.max_absolute_ticks, static_cast<int64_t>(std::max(es, ee)));
    out.sum_squared += es * es + ee * ee;
    out.min_duration = std::min(out.min_duration, d);
    out.max_duration = std::max(out.max_duration, d);
    const double b = bound_of_call[i];
    auto within = [](double err, double allowed) { return err <= allowed * (1 + 1e-12); };
    bool ok;
    if (!spec.lossy())
      ok = es == 0 && ee == 0;
    else if (spec.absolute())
      ok = within(es, b) && within(ee, b);
    else
      ok = within(es, b * g) && within(ed, b * static_cast<double>(std::llabs(d)));
    if (!ok && out.outside++ == 0)
      out.first_outside = i;
  }
  return true;
}

std::string verify_times_path(const std::string &trace_path, uint32_t rank) {
  return trace_path + ".verify." + std::to_string(rank) + ".times";
}

bool compare_rank_times(const Trace &trace, const std::string &trace_path, uint32_t rank,
                        TimingError &out, std::string &error) {
  timing::Spec spec;
  std::string why;
  if (!timing::parse_spec(trace.header.timing_spec, spec, why)) {
    error = "the trace has no per-call times";
    return false;
  }
  std::vector<int64_t> start, end, exact_start, exact_end;
  if (!read_call_ticks(trace, rank, start, end, error))
    return false;
  const std::string path = verify_times_path(trace_path, rank);
  if (!read_verify_times(path, exact_start, exact_end, error))
    return false;
  // Each call's bound: its CST entry's function's (a TOL in ticks).
  std::vector<double> bound_of_call;
  bound_of_call.reserve(start.size());
  try {
    const std::vector<double> bound_of_entry = entry_bounds(trace, rank, spec);
    for (uint32_t t : call_entries(trace, rank))
      bound_of_call.push_back(t < bound_of_entry.size() ? bound_of_entry[t] : 0);
  } catch (const TraceError &e) {
    error = e.what();
    return false;
  }
  if (!compare_times(spec, bound_of_call, start, end, exact_start, exact_end, out, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

} // namespace pilgrim
