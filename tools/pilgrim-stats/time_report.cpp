#include "time_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/collective_call.h"
#include "pilgrim/duration_text.h"
#include "pilgrim/run_frame.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::stats {

namespace {

const char kPerCallHint[] =
    "PILGRIM_TIMING=lossless, or a lossy per-call mode such as hist:0.1,8 (README "
    "\"PILGRIM_TIMING\")";

struct FunctionTime {
  std::string name;
  uint64_t calls = 0;
  double seconds = 0;
};

std::string percent_text(double part, double whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", whole > 0 ? 100 * part / whole : 0.0);
  return buf;
}

std::string ratio_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", x);
  return buf;
}

// The per-function table, most time first, MPI_Init and MPI_Finalize last;
// `total` sums the functions that do not frame the run.
void print_functions(TextOutput &out, std::vector<FunctionTime> rows) {
  std::sort(rows.begin(), rows.end(), [](const FunctionTime &a, const FunctionTime &b) {
    const bool fa = frames_run(a.name), fb = frames_run(b.name);
    if (fa != fb)
      return fb;
    return a.seconds != b.seconds ? a.seconds > b.seconds : a.name < b.name;
  });
  FunctionTime total;
  total.name = "total";
  for (const FunctionTime &f : rows)
    if (!frames_run(f.name)) {
      total.calls += f.calls;
      total.seconds += f.seconds;
    }
  out << "# time: the calls' durations summed; share: of the total; total: every function but "
         "MPI_Init and MPI_Finalize (the launch and the tracer's own work)\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-28s %12s %10s %7s %10s\n", "# function", "calls", "time",
                "share", "mean");
  out << buf;
  const auto line = [&](const FunctionTime &f, const std::string &share) {
    std::snprintf(buf, sizeof buf, "%-28s %12llu %10s %7s %10s\n", f.name.c_str(),
                  static_cast<unsigned long long>(f.calls), duration_text(f.seconds).c_str(),
                  share.c_str(),
                  f.calls ? duration_text(f.seconds / static_cast<double>(f.calls)).c_str() : "-");
    out << buf;
  };
  for (const FunctionTime &f : rows)
    line(f, frames_run(f.name) ? "-" : percent_text(f.seconds, total.seconds));
  line(total, "100.0%");
}

// Aggregate mode: each signature's count x mean duration, over all ranks.
void print_aggregate(TextOutput &out, const TraceInput &input) {
  const reader::TraceFile &file = input.file;
  std::map<uint16_t, FunctionTime> by_id;
  for (uint64_t t = 0; t < file.cst_size(); ++t) {
    const TimingStats &d = file.cst_entry(t).duration;
    if (d.n == 0)
      continue;
    const Call &call = file.cst_call(t);
    FunctionTime &f = by_id[call.function_id];
    if (f.name.empty())
      f.name = sanitize_for_message(call.name() ? call.name() : "?", 200);
    f.calls += d.n;
    f.seconds += static_cast<double>(d.n) * d.mean;
  }
  out << "# time in MPI per function, all ranks together (timing mode aggregate: each call "
         "signature's count x mean duration"
      << (input.rank >= 0 ? "; aggregate timing has no per-rank split, so --rank does not "
                            "select here"
                          : "")
      << ")\n";
  std::vector<FunctionTime> rows;
  for (auto &kv : by_id)
    rows.push_back(std::move(kv.second));
  print_functions(out, std::move(rows));
  out << "# time in MPI per rank: needs per-call timing (" << kPerCallHint << ")\n";
  out << "# slowest ranks: needs per-call timing (" << kPerCallHint << ")\n";
  out << "# imbalance of collectives (max/mean over ranks): needs per-call timing (" << kPerCallHint
      << ")\n";
}

struct RankTime {
  uint32_t rank = 0;
  uint64_t calls = 0;
  double in_mpi = 0; // without MPI_Init, MPI_Finalize
  double span = 0; // from the first call after MPI_Init to the end of the last before MPI_Finalize
  std::map<uint16_t, double> by_function;
};

// One rank's calls with their times: its calls in order (CallCursor, the
// order of call_times), each call's function from its CST entry.
RankTime rank_time(const reader::TraceFile &file, uint32_t rank,
                   std::map<uint16_t, FunctionTime> &functions) {
  const std::vector<CallTime> times = file.call_times(rank);
  RankTime r;
  r.rank = rank;
  bool any = false;
  double first = 0, last = 0; // the run: first start and last end of the calls between
  for (reader::CallCursor c = file.calls(rank); c.next();) {
    const uint64_t i = c.position();
    if (i >= times.size())
      throw TraceError("rank " + std::to_string(rank) + ": " + std::to_string(times.size()) +
                       " call times for more calls");
    const Call &call = file.cst_call(c.entry());
    FunctionTime &f = functions[call.function_id];
    if (f.name.empty())
      f.name = sanitize_for_message(call.name() ? call.name() : "?", 200);
    const double d = times[i].end - times[i].start;
    f.calls += 1;
    f.seconds += d;
    if (frames_run(f.name))
      continue;
    if (!any)
      first = times[i].start;
    any = true;
    last = std::max(last, times[i].end);
    r.calls += 1;
    r.in_mpi += d;
    r.by_function[call.function_id] += d;
  }
  r.span = any ? last - first : 0;
  return r;
}

void print_ranks(TextOutput &out, std::vector<RankTime> ranks, const TimeReportOptions &o) {
  std::sort(ranks.begin(), ranks.end(), [](const RankTime &a, const RankTime &b) {
    return a.in_mpi != b.in_mpi ? a.in_mpi > b.in_mpi : a.rank < b.rank;
  });
  const size_t shown = o.per_rank ? ranks.size() : std::min(o.top, ranks.size());
  out << "# slowest ranks: most time in MPI first (" << std::to_string(shown) << " of "
      << std::to_string(ranks.size()) << (o.per_rank ? "" : "; every rank with --per-rank")
      << "); run: from the start of the first call after MPI_Init to the end of the last call "
         "before MPI_Finalize; outside: the run's time outside MPI (computing)\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-10s %12s %10s %7s %10s %10s\n", "# rank", "calls", "in_mpi",
                "share", "outside", "run");
  out << buf;
  for (size_t k = 0; k < shown; ++k) {
    const RankTime &r = ranks[k];
    std::snprintf(buf, sizeof buf, "%-10u %12llu %10s %7s %10s %10s\n", r.rank,
                  static_cast<unsigned long long>(r.calls), duration_text(r.in_mpi).c_str(),
                  percent_text(r.in_mpi, r.span).c_str(),
                  duration_text(std::max(0.0, r.span - r.in_mpi)).c_str(),
                  duration_text(r.span).c_str());
    out << buf;
  }
  if (ranks.size() > 1) {
    const RankTime &least = ranks.back();
    out << "# least time in MPI: rank " << std::to_string(least.rank) << ", "
        << duration_text(least.in_mpi)
        << " (the others waiting in MPI are often waiting for the rank that arrives last)\n";
  }
}

// Per blocking collective, over the ranks that called it: the mean, the
// largest and the smallest time a rank spent in it, and max/mean.
void print_imbalance(TextOutput &out, const std::vector<RankTime> &ranks,
                     const std::map<uint16_t, FunctionTime> &functions) {
  out << "# imbalance of collectives: the time each rank spent in the function, over the ranks "
         "that called it; max/mean 1.00 is balanced\n";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%-28s %6s %10s %10s %8s %10s %8s %9s\n", "# function", "ranks",
                "mean", "max", "max_rank", "min", "min_rank", "max/mean");
  out << buf;
  bool any = false;
  for (const auto &kv : functions) {
    if (!is_blocking_collective(kv.second.name))
      continue;
    double sum = 0, max = -1, min = 0;
    uint32_t max_rank = 0, min_rank = 0, n = 0;
    for (const RankTime &r : ranks) {
      const auto it = r.by_function.find(kv.first);
      if (it == r.by_function.end())
        continue;
      const double s = it->second;
      sum += s;
      if (s > max || (s == max && r.rank < max_rank)) {
        max = s;
        max_rank = r.rank;
      }
      if (n == 0 || s < min || (s == min && r.rank < min_rank)) {
        min = s;
        min_rank = r.rank;
      }
      ++n;
    }
    if (n == 0)
      continue;
    any = true;
    const double mean = sum / n;
    std::snprintf(buf, sizeof buf, "%-28s %6u %10s %10s %8u %10s %8u %9s\n", kv.second.name.c_str(),
                  n, duration_text(mean).c_str(), duration_text(max).c_str(), max_rank,
                  duration_text(min).c_str(), min_rank,
                  mean > 0 ? ratio_text(max / mean).c_str() : "-");
    out << buf;
  }
  if (!any)
    out << "# (no blocking collective in the selected ranks)\n";
}

void print_per_call(TextOutput &out, const TraceInput &input, const TimeReportOptions &o) {
  std::map<uint16_t, FunctionTime> functions;
  std::vector<RankTime> ranks;
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r)
    ranks.push_back(rank_time(input.file, r, functions));
  out << "# time in MPI per function, "
      << (input.rank < 0 ? "all ranks together" : "rank " + std::to_string(input.rank))
      << " (timing mode " << timing_mode_text(input.file.header().timing_mode)
      << ": every call's own duration)\n";
  std::vector<FunctionTime> rows;
  for (const auto &kv : functions)
    rows.push_back(kv.second);
  print_functions(out, std::move(rows));
  print_ranks(out, ranks, o);
  if (input.rank >= 0)
    out << "# imbalance of collectives: compares the ranks; run without --rank\n";
  else
    print_imbalance(out, ranks, functions);
}

} // namespace

void print_time_report(TextOutput &out, const TraceInput &input, const TimeReportOptions &o) {
  const uint8_t mode = input.file.header().timing_mode;
  if (input.file.has_call_times())
    try { // a rank's damaged times: one line naming the trace
      print_per_call(out, input, o);
    } catch (const TraceError &e) {
      rethrow_with_context(input.path, e);
    }
  else if (mode == static_cast<uint8_t>(TimingMode::Aggregate))
    print_aggregate(out, input);
  else
    out << "# time in MPI: the trace has no timing (timing mode " + timing_mode_text(mode) +
               "); trace with " + kPerCallHint + "\n";
}

} // namespace pilgrim::stats
