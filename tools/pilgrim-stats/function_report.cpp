#include "function_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/duration_text.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/saturating.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::stats {

namespace {

struct FunctionStats {
  std::string name;
  uint64_t calls = 0;
  uint64_t bytes = 0;
  uint64_t unsized_calls = 0; // calls whose volume is incomplete
  TimingStats duration, interval;
};

void append_timing(std::string &line, const TimingStats &t) {
  char buf[128];
  if (t.n == 0) {
    std::snprintf(buf, sizeof buf, " %10s %10s %10s %10s", "-", "-", "-", "-");
  } else {
    std::snprintf(buf, sizeof buf, " %10s %10s %10s %10s", duration_text(t.mean).c_str(),
                  duration_text(stddev(t)).c_str(), duration_text(t.min).c_str(),
                  duration_text(t.max).c_str());
  }
  line += buf;
}

std::string row(const FunctionStats &s) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%-28s %12llu %16llu %10llu", s.name.c_str(),
                static_cast<unsigned long long>(s.calls), static_cast<unsigned long long>(s.bytes),
                static_cast<unsigned long long>(s.unsized_calls));
  std::string line = buf;
  append_timing(line, s.duration);
  append_timing(line, s.interval);
  return line + "\n";
}

} // namespace

void print_function_report(TextOutput &out, const TraceInput &input) {
  const reader::TraceFile &file = input.file;
  std::map<uint16_t, FunctionStats> by_id;
  std::vector<bool> used(file.cst_size(), false);
  // Each use resolved at its position (a root's rank in a communicator
  // depends on which creation of its id applies), a loop's iterations folded.
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r)
    file.visit_calls(r, [&](uint64_t t, const Call &call, uint64_t times) {
      FunctionStats &s = by_id[call.function_id];
      if (s.name.empty())
        s.name = sanitize_for_message(call.name() ? call.name() : "?", 200);
      s.calls = sat_add(s.calls, times);
      const MessageVolume mv = message_volume(call);
      s.bytes = sat_add(s.bytes, sat_mul(mv.bytes, times));
      if (!mv.complete)
        s.unsized_calls = sat_add(s.unsized_calls, times);
      used[t] = true;
    });
  // Timing is kept per signature (merged over the ranks that made it).
  for (uint64_t t = 0; t < file.cst_size(); ++t) {
    if (!used[t])
      continue;
    FunctionStats &s = by_id[file.cst_call(t).function_id];
    merge_stats(s.duration, file.cst_entry(t).duration);
    merge_stats(s.interval, file.cst_entry(t).interval);
  }
  std::vector<FunctionStats> rows;
  FunctionStats total;
  total.name = "total";
  for (auto &kv : by_id) {
    total.calls = sat_add(total.calls, kv.second.calls);
    total.bytes = sat_add(total.bytes, kv.second.bytes);
    total.unsized_calls = sat_add(total.unsized_calls, kv.second.unsized_calls);
    merge_stats(total.duration, kv.second.duration);
    merge_stats(total.interval, kv.second.interval);
    rows.push_back(std::move(kv.second));
  }
  std::sort(rows.begin(), rows.end(), [](const FunctionStats &a, const FunctionStats &b) {
    return a.calls != b.calls ? a.calls > b.calls : a.name < b.name;
  });

  out << "# stats: " << (input.rank < 0 ? "all ranks" : "rank " + std::to_string(input.rank))
      << '\n';
  out << "# dur: time inside the call; int: time from the start of the same rank's previous call "
         "with the same signature to the call's start\n";
  char head[320];
  std::snprintf(head, sizeof head, "%-28s %12s %16s %10s %10s %10s %10s %10s %10s %10s %10s %10s\n",
                "# function", "calls", "bytes", "unsized", "dur_mean", "dur_std", "dur_min",
                "dur_max", "int_mean", "int_std", "int_min", "int_max");
  out << head;
  for (const FunctionStats &s : rows)
    out << row(s);
  out << row(total);
}

} // namespace pilgrim::stats
