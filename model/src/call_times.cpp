#include "pilgrim/call_times.h"

#include "pilgrim/byte_io.h"
#include "pilgrim/clock_alignment.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_mode.h"
#include "pilgrim/timing_payload.h"
#include "pilgrim/timing_spec.h"
#include "pilgrim/trace_error.h"

#include <unordered_map>

namespace pilgrim {

namespace {

// The rank's RANK_TIMING payload split into its clock block and its chunks
// (docs/FORMAT.md §7.9). False with `error` when the head is cut short.
bool split_payload(const std::string &payload, std::string_view &clock, std::string_view &chunks,
                   std::string &error) {
  try {
    ByteReader r(payload);
    const uint64_t n = r.varint();
    if (n > payload.size() - r.offset())
      throw TraceError("clock block of " + std::to_string(n) + " bytes is cut short");
    clock = std::string_view(payload).substr(r.offset(), static_cast<size_t>(n));
    chunks = std::string_view(payload).substr(r.offset() + static_cast<size_t>(n));
  } catch (const TraceError &e) {
    error = e.what();
    return false;
  }
  return true;
}

} // namespace

bool read_rank_clock(const Trace &trace, uint32_t rank, RankClock &clock, bool &present,
                     std::string &error) {
  present = false;
  const auto it = trace.rank_timing.find(rank);
  if (it == trace.rank_timing.end()) {
    error = "rank " + std::to_string(rank) + " timing: no RANK_TIMING section";
    return false;
  }
  std::string_view block, chunks;
  if (!split_payload(it->second, block, chunks, error)) {
    error = "rank " + std::to_string(rank) + " timing: " + error;
    return false;
  }
  if (block.empty())
    return true;
  const uint8_t *p = reinterpret_cast<const uint8_t *>(block.data());
  if (!decode_rank_clock(p, p + block.size(), clock, error) ||
      p != reinterpret_cast<const uint8_t *>(block.data()) + block.size()) {
    if (error.empty())
      error = "trailing bytes after the clock block";
    error = "rank " + std::to_string(rank) + " timing: clock block: " + error;
    return false;
  }
  present = true;
  return true;
}

std::vector<uint32_t> call_entries(const Trace &trace, uint32_t rank) {
  const RankView v = trace.rank(rank);
  std::vector<uint32_t> entries;
  GrammarWalker walker(*v.rules, v.root);
  uint64_t t;
  while (walker.next(t))
    entries.push_back(static_cast<uint32_t>(t));
  return entries;
}

std::vector<double> entry_bounds(const Trace &trace, uint32_t rank, const timing::Spec &spec) {
  const RankView v = trace.rank(rank);
  const double unit = spec.absolute() ? 1.0 / seconds_per_tick(trace, rank) : 1.0;
  std::vector<double> bounds(v.cst->size(), spec.bound * unit);
  for (size_t t = 0; t < v.cst->size(); ++t)
    if (const FunctionInfo *f = trace.function(signature_function_id((*v.cst)[t].signature)))
      bounds[t] = spec.bound_of(f->name) * unit;
  return bounds;
}

bool has_call_times(const Trace &trace) {
  return is_per_call(trace.header.timing_mode) && !trace.header.timing_spec.empty();
}

bool read_call_ticks(const Trace &trace, uint32_t rank, std::vector<int64_t> &start,
                     std::vector<int64_t> &end, std::string &error) {
  const std::string where = "rank " + std::to_string(rank) + " timing: ";
  if (!has_call_times(trace)) {
    error = "the trace has no per-call times (timing mode " +
            timing_mode_text(trace.header.timing_mode) + ")";
    return false;
  }
  timing::Spec spec;
  std::string why;
  if (!timing::parse_spec(trace.header.timing_spec, spec, why)) {
    error = "META timing_spec '" + trace.header.timing_spec + "': " + why;
    return false;
  }
  spec.format_version = trace.header.version;
  const auto it = trace.rank_timing.find(rank);
  if (it == trace.rank_timing.end()) {
    error = where + "no RANK_TIMING section";
    return false;
  }
  std::string_view clock, chunks;
  if (!split_payload(it->second, clock, chunks, why)) {
    error = where + why;
    return false;
  }
  std::vector<uint32_t> groups;
  std::vector<double> bound_of_group;
  try {
    groups = call_entries(trace, rank);
    const std::vector<double> bound_of_entry = entry_bounds(trace, rank, spec);
    // The runtime's groups are the rank's terminals, numbered in the order
    // of their first call; the codecs may order groups by id, so the
    // entries are renumbered the same way (docs/FORMAT.md §7.9).
    std::unordered_map<uint32_t, uint32_t> label;
    for (uint32_t &g : groups) {
      const auto it = label.emplace(g, static_cast<uint32_t>(label.size())).first;
      if (it->second == bound_of_group.size())
        bound_of_group.push_back(g < bound_of_entry.size() ? bound_of_entry[g] : spec.bound);
      g = it->second;
    }
  } catch (const TraceError &e) {
    error = where + e.what();
    return false;
  }
  start.assign(groups.size(), 0);
  end.assign(groups.size(), 0);
  if (!timing::decode_payload(spec, bound_of_group,
                              reinterpret_cast<const uint8_t *>(chunks.data()), chunks.size(),
                              groups.size(), groups.data(), start.data(), end.data(), why)) {
    error = where + why;
    return false;
  }
  return true;
}

double seconds_per_tick(const Trace &trace, uint32_t rank) {
  RankClock clock;
  bool present = false;
  std::string error;
  if (read_rank_clock(trace, rank, clock, present, error) && present)
    return clock.ns_per_tick * 1e-9;
  return 1e-9; // no calibration: a tick is 1 ns
}

bool read_call_times(const Trace &trace, uint32_t rank, std::vector<CallTime> &out,
                     std::string &error) {
  std::vector<int64_t> start, end;
  if (!read_call_ticks(trace, rank, start, end, error))
    return false;
  RankClock mine, rank0;
  bool has_mine = false, has_rank0 = false;
  if (!read_rank_clock(trace, rank, mine, has_mine, error) ||
      !read_rank_clock(trace, 0, rank0, has_rank0, error))
    return false;
  out.resize(start.size());
  if (has_mine && has_rank0) {
    for (size_t i = 0; i < start.size(); ++i)
      out[i] =
          CallTime{aligned_seconds(mine, rank0, start[i]), aligned_seconds(mine, rank0, end[i])};
    return true;
  }
  // No clock blocks (a trace written without them): ticks are nanoseconds
  // of one clock shared by the ranks, counted from rank 0's first call.
  std::vector<int64_t> start0, end0;
  if (rank != 0 && !read_call_ticks(trace, 0, start0, end0, error))
    return false;
  const std::vector<int64_t> &first = rank == 0 ? start : start0;
  const int64_t origin = first.empty() ? 0 : first.front();
  for (size_t i = 0; i < start.size(); ++i)
    out[i] = CallTime{static_cast<double>(start[i] - origin) * 1e-9,
                      static_cast<double>(end[i] - origin) * 1e-9};
  return true;
}

} // namespace pilgrim
