#include "site_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/call_sites.h"
#include "pilgrim/duration_text.h"
#include "pilgrim/message_volume.h"
#include "pilgrim/saturating.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::stats {

namespace {

struct SiteStats {
  std::string text;      // site_text, or "(no site)"
  std::string functions; // the MPI functions called there, in id order
  uint64_t calls = 0, bytes = 0;
  TimingStats duration; // over the site's CST entries (merged over the ranks)
};

} // namespace

void print_site_report(TextOutput &out, const TraceInput &input) {
  const reader::TraceFile &file = input.file;
  // Keyed by the site's reference (0: none): one row per site of the table.
  std::map<uint32_t, SiteStats> by_site;
  std::map<uint32_t, std::map<uint16_t, std::string>> names;
  std::vector<bool> used(file.cst_size(), false);
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r)
    file.visit_calls(r, [&](uint64_t t, const Call &call, uint64_t times) {
      const uint32_t ref = file.cst_entry(t).site;
      SiteStats &s = by_site[ref];
      s.calls = sat_add(s.calls, times);
      s.bytes = sat_add(s.bytes, sat_mul(message_volume(call).bytes, times));
      names[ref].emplace(call.function_id,
                         sanitize_for_message(call.name() ? call.name() : "?", 200));
      used[t] = true;
    });
  for (uint64_t t = 0; t < file.cst_size(); ++t)
    if (used[t])
      merge_stats(by_site[file.cst_entry(t).site].duration, file.cst_entry(t).duration);
  std::vector<SiteStats> rows;
  for (auto &kv : by_site) {
    kv.second.text = kv.first && kv.first <= file.sites().size()
                         ? sanitize_for_message(site_text(file.sites()[kv.first - 1]), 300)
                         : "(no site)";
    for (const auto &n : names[kv.first])
      kv.second.functions += (kv.second.functions.empty() ? "" : ",") + n.second;
    rows.push_back(std::move(kv.second));
  }
  // The most time first (the sites worth looking at), then calls, then text.
  auto total_time = [](const SiteStats &s) {
    return s.duration.mean * static_cast<double>(s.duration.n);
  };
  std::sort(rows.begin(), rows.end(), [&](const SiteStats &a, const SiteStats &b) {
    if (total_time(a) != total_time(b))
      return total_time(a) > total_time(b);
    return a.calls != b.calls ? a.calls > b.calls : a.text < b.text;
  });
  out << "# sites: " << (input.rank < 0 ? "all ranks" : "rank " + std::to_string(input.rank))
      << ", " << std::to_string(file.sites().size()) << " sites in the trace\n";
  out << "# time: time inside the calls made there (sum); dur_mean: per call\n";
  char line[512];
  std::snprintf(line, sizeof line, "%12s %16s %10s %10s  %s\n", "# calls", "bytes", "time",
                "dur_mean", "site (functions)");
  out << line;
  for (const SiteStats &s : rows) {
    const bool timed = s.duration.n > 0;
    std::snprintf(line, sizeof line, "%12llu %16llu %10s %10s  ",
                  static_cast<unsigned long long>(s.calls),
                  static_cast<unsigned long long>(s.bytes),
                  timed ? duration_text(total_time(s)).c_str() : "-",
                  timed ? duration_text(s.duration.mean).c_str() : "-");
    out << line << s.text << " (" << s.functions << ")\n";
  }
}

} // namespace pilgrim::stats
