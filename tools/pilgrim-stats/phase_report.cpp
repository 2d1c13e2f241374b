#include "phase_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "pilgrim/duration_text.h"
#include "pilgrim/markers.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/saturating.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::stats {

namespace {

// The phase before a rank's first phase marker.
const char kNoPhase[] = "(before any phase)";

struct PhaseStats {
  uint64_t calls = 0;
  double in_mpi = 0, wall = 0;
  uint64_t first_seen = 0; // order of first appearance, for the table's order
};

// Per CST entry: the phase it starts (its index in `names`), -1 if it is no
// phase marker; -2 for a record that is not an MPI call (not counted).
std::vector<int64_t> phase_entries(const reader::TraceFile &file, std::vector<std::string> &names) {
  std::vector<int64_t> of(file.cst_size(), -1);
  std::map<std::string, int64_t> index;
  for (uint64_t t = 0; t < file.cst_size(); ++t) {
    const Call &call = file.cst_call(t);
    const Marker m = marker_of(call);
    if (m.kind == MarkerKind::Phase) {
      auto it = index.emplace(m.phase, static_cast<int64_t>(names.size())).first;
      if (it->second == static_cast<int64_t>(names.size()))
        names.push_back(m.phase);
      of[t] = it->second;
    } else if (is_record(call.function_id)) {
      of[t] = -2;
    }
  }
  return of;
}

} // namespace

void print_phase_report(TextOutput &out, const TraceInput &input) {
  const reader::TraceFile &file = input.file;
  std::vector<std::string> names;
  const std::vector<int64_t> phase_of = phase_entries(file, names);
  if (names.empty())
    return;
  const bool timed = file.has_call_times();
  std::map<std::string, PhaseStats> phases;
  uint64_t order = 0;
  auto stats_of = [&](const std::string &name) -> PhaseStats & {
    auto [it, inserted] = phases.emplace(name, PhaseStats{});
    if (inserted)
      it->second.first_seen = order++;
    return it->second;
  };
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r) {
    std::vector<CallTime> times;
    if (timed)
      times = file.call_times(r);
    std::string phase = kNoPhase;
    double phase_start = -1, last_end = -1;
    for (reader::CallCursor c = file.calls(r); c.next();) {
      const uint64_t i = c.position();
      if (timed && i >= times.size())
        throw TraceError("rank " + std::to_string(r) + ": " + std::to_string(times.size()) +
                         " call times for more calls");
      const int64_t p = c.entry() < phase_of.size() ? phase_of[c.entry()] : -1;
      if (p >= 0) {
        if (timed && phase_start >= 0)
          stats_of(phase).wall += times[i].start - phase_start;
        phase = names[static_cast<size_t>(p)];
        phase_start = timed ? times[i].start : -1;
        stats_of(phase);
        continue;
      }
      if (p == -2)
        continue;
      PhaseStats &s = stats_of(phase);
      s.calls = sat_add(s.calls, 1);
      if (timed) {
        s.in_mpi += times[i].end - times[i].start;
        last_end = times[i].end;
      }
    }
    if (timed && phase_start >= 0 && last_end > phase_start)
      stats_of(phase).wall += last_end - phase_start;
  }
  std::vector<std::pair<std::string, PhaseStats>> rows(phases.begin(), phases.end());
  std::sort(rows.begin(), rows.end(),
            [](const auto &a, const auto &b) { return a.second.first_seen < b.second.first_seen; });
  out << "# phases (PILGRIM_PHASE): a phase lasts on a rank until its next phase marker; calls: "
         "the MPI calls made in it, ranks summed";
  if (timed)
    out << "; in_mpi: their durations summed; wall: from the phase's marker to the next one (or "
           "the rank's last call), ranks summed\n";
  else
    out << "; time per phase needs per-call timing (PILGRIM_TIMING=lossless, or a lossy per-call "
           "mode such as hist:0.1,8): aggregate timing keeps time per signature, not per phase\n";
  char buf[320];
  std::snprintf(buf, sizeof buf, "%-28s %12s %10s %10s\n", "# phase", "calls", "in_mpi", "wall");
  out << buf;
  for (const auto &[name, s] : rows) {
    std::snprintf(buf, sizeof buf, "%-28s %12llu %10s %10s\n",
                  sanitize_for_message(name, 200).c_str(), static_cast<unsigned long long>(s.calls),
                  timed ? duration_text(s.in_mpi).c_str() : "-",
                  timed ? duration_text(s.wall).c_str() : "-");
    out << buf;
  }
}

} // namespace pilgrim::stats
