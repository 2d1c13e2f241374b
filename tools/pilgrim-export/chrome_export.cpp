// pilgrim-export --chrome: trace-event JSON, streamed rank by rank (the
// mapping: docs/EXPORT.md, "Chrome / Perfetto").
//  - Tracks: pid = rank + 1 ("Rank r"), tid = recorded thread id + 1
//    ("main" for thread 0): Perfetto reserves pid and tid 0.
//  - A complete ("X") slice per call with its arguments (chrome_call_slice.h).
//  - Request lifetimes as async slices ("b"/"e", process-scoped id2), cat
//    "request" (chrome_requests.h).
//  - Message arrows as flow events ("s" in the send's slice, "f" with
//    "bp":"e" in the completing receive's slice), cat "msg"
//    (chrome_flows.h, on the shared matcher).
//  - Times: aligned per-call times, or calls in order without real times
//    (chrome_placement.h), which the metadata and stderr say.
#include "chrome_export.h"

#include <algorithm>
#include <iostream>
#include <set>

#include "chrome_call_slice.h"
#include "chrome_flows.h"
#include "chrome_json.h"
#include "chrome_placement.h"
#include "chrome_requests.h"
#include "pilgrim/timing_mode.h"

namespace pilgrim::exporter {

namespace {

// "0-3,8" for the selected ranks.
std::string ranks_text(const std::vector<bool> &selected) {
  std::string text;
  for (size_t r = 0; r < selected.size();) {
    if (!selected[r]) {
      ++r;
      continue;
    }
    size_t end = r;
    while (end + 1 < selected.size() && selected[end + 1])
      ++end;
    text += (text.empty() ? "" : ",") + std::to_string(r) +
            (end > r ? "-" + std::to_string(end) : std::string());
    r = end + 1;
  }
  return text;
}

std::string ordered_note(const reader::TraceFile &trace) {
  return "timing " + timing_mode_text(trace.header().timing_mode) +
         " keeps no per-call times: calls are placed in order, 1 us apart, not at real times";
}

class RankWriter {
public:
  RankWriter(ChromeDocument &doc, const reader::TraceFile &trace, const ExportOptions &options,
             const ChromeFlows &flows)
      : doc_(doc), trace_(trace), options_(options), flows_(flows) {
    if (options.has_time) {
      from_ = seconds_ns(options.time_from);
      to_ = seconds_ns(options.time_to);
    }
  }

  // Writes rank `rank`'s tracks; returns how many calls were moved to keep
  // a track's slices nested.
  uint64_t write(uint32_t rank) {
    const int64_t pid = static_cast<int64_t>(rank) + 1;
    event_.clear();
    args_.clear();
    args_.text("name", "Rank " + std::to_string(rank));
    doc_.event(event_.text("ph", "M")
                   .text("name", "process_name")
                   .integer("pid", pid)
                   .raw("args", args_.str()));
    event_.clear();
    args_.clear();
    args_.integer("sort_index", rank);
    doc_.event(event_.text("ph", "M")
                   .text("name", "process_sort_index")
                   .integer("pid", pid)
                   .raw("args", args_.str()));

    CallPlacement place(trace_, rank);
    RequestLifetimes requests;
    std::vector<RequestLifetime> done;
    std::set<uint64_t> threads;
    const std::vector<ChromeFlows::End> &ends = flows_.ends(rank);
    size_t next_end = 0;
    uint64_t last = 0;
    Span last_raw, last_placed;
    bool any = false;
    for (reader::CallCursor c = trace_.calls(rank); c.next();) {
      const Call &call = c.call();
      const uint64_t index = c.position();
      const Span raw = place.raw(index);
      const Span placed = place.place(index, call.thread);
      const int64_t tid = static_cast<int64_t>(call.thread) + 1;
      if (threads.insert(call.thread).second)
        thread_name(pid, tid, call.thread);
      if (inside(raw)) {
        event_.clear();
        event_.text("ph", "X")
            .text("name", call_name(call))
            .text("cat", call_category(call))
            .integer("pid", pid)
            .integer("tid", tid)
            .micros("ts", placed.start)
            .micros("dur", placed.end - placed.start)
            .raw("args", call_args(call, index).str());
        doc_.event(event_);
      }
      while (next_end < ends.size() && ends[next_end].index < index)
        ++next_end; // (not a call of this rank: cannot happen)
      for (; next_end < ends.size() && ends[next_end].index == index; ++next_end)
        flow(ends[next_end], pid, tid, placed);
      requests.call(call, index, raw, placed, done);
      lifetimes(done, pid);
      last = index;
      last_raw = raw;
      last_placed = placed;
      any = true;
    }
    if (any) {
      requests.finish(last, last_raw, last_placed, done);
      lifetimes(done, pid);
    }
    return place.moved();
  }

private:
  bool inside(const Span &raw) const { return !options_.has_time || overlaps(raw, from_, to_); }

  void thread_name(int64_t pid, int64_t tid, uint64_t thread) {
    event_.clear();
    args_.clear();
    args_.text("name", thread == 0 ? std::string("main") : "thread " + std::to_string(thread));
    doc_.event(event_.text("ph", "M")
                   .text("name", "thread_name")
                   .integer("pid", pid)
                   .integer("tid", tid)
                   .raw("args", args_.str()));
  }

  // A flow end inside the call's slice (its middle, so that it binds to this
  // slice and not to a neighbour that touches it).
  void flow(const ChromeFlows::End &end, int64_t pid, int64_t tid, const Span &placed) {
    event_.clear();
    event_.text("ph", end.out ? "s" : "f");
    if (!end.out)
      event_.text("bp", "e");
    event_.integer("id", static_cast<int64_t>(end.flow))
        .text("cat", "msg")
        .text("name", "message")
        .integer("pid", pid)
        .integer("tid", tid)
        .micros("ts", placed.start + (placed.end - placed.start) / 2);
    doc_.event(event_);
  }

  // Each lifetime as a begin ("b") and an end ("e") of one async slice.
  void lifetimes(std::vector<RequestLifetime> &done, int64_t pid) {
    using End = RequestLifetime::End;
    for (const RequestLifetime &l : done) {
      if (!inside({l.begin_raw.start, l.end_raw.end}))
        continue;
      const std::string id = "{\"local\":\"0x" + hex(++async_id_) + "\"}";
      args_.clear();
      args_.text("request", l.request).integer("call", static_cast<int64_t>(l.begin_call));
      async_event("b", l, id, pid, l.begin.start);
      args_.clear();
      if (l.how == End::Never)
        args_.text("never_completed", "still active after the rank's last call");
      else
        args_.integer(l.how == End::Freed ? "freed_by" : "completed_by",
                      static_cast<int64_t>(l.end_call));
      async_event("e", l, id, pid, std::max(l.begin.start, l.end.end));
    }
    done.clear();
  }

  void async_event(const char *ph, const RequestLifetime &l, const std::string &id, int64_t pid,
                   int64_t ts) {
    event_.clear();
    doc_.event(event_.text("ph", ph)
                   .text("cat", "request")
                   .text("name", l.name)
                   .raw("id2", id)
                   .integer("pid", pid)
                   .integer("tid", static_cast<int64_t>(l.thread) + 1)
                   .micros("ts", ts)
                   .raw("args", args_.str()));
  }

  static std::string hex(uint64_t v) {
    static const char digits[] = "0123456789abcdef";
    std::string s;
    do {
      s.insert(s.begin(), digits[v & 15]);
      v >>= 4;
    } while (v);
    return s;
  }

  ChromeDocument &doc_;
  const reader::TraceFile &trace_;
  const ExportOptions &options_;
  const ChromeFlows &flows_;
  int64_t from_ = 0, to_ = 0;
  uint64_t async_id_ = 0;
  JsonObject event_, args_;
};

} // namespace

bool write_chrome(const reader::TraceFile &trace, const ExportOptions &options,
                  std::string &error) {
  const uint32_t n = trace.nranks();
  const bool real = trace.has_call_times();
  if (options.has_time && !real) {
    error = options.trace + ": --time needs per-call times, and the trace has timing " +
            timing_mode_text(trace.header().timing_mode) +
            " (trace with PILGRIM_TIMING=lossless or another per-call mode)";
    return false;
  }
  std::vector<bool> selected(n, options.ranks.empty());
  for (uint32_t r : options.ranks)
    if (r < n)
      selected[r] = true;

  const ChromeFlows flows(trace, selected, options);
  ChromeDocument doc;
  if (!doc.open(options.chrome, error))
    return false;

  JsonObject meta;
  meta.text("tool", "pilgrim-export")
      .text("trace", options.trace)
      .text("mpi", trace.header().mpi_library + " " + trace.header().mpi_version)
      .integer("ranks", n)
      .text("exported_ranks", ranks_text(selected))
      .text("timing", timing_mode_text(trace.header().timing_mode))
      .text("times", real ? "aligned per-call times: seconds on rank 0's timeline (ts and dur "
                            "in microseconds)"
                          : ordered_note(trace))
      .integer("messages", static_cast<int64_t>(flows.count()))
      .integer("unmatched", static_cast<int64_t>(flows.unmatched()));
  if (options.has_time)
    meta.text("window", "calls overlapping " + std::to_string(options.time_from) + " s to " +
                            std::to_string(options.time_to) + " s");
  doc.begin(meta);
  RankWriter writer(doc, trace, options, flows);
  uint64_t moved = 0;
  for (uint32_t r = 0; r < n; ++r)
    if (selected[r])
      moved += writer.write(r);
  if (!doc.end(error))
    return false;
  if (!real)
    std::cerr << "pilgrim-export: " << options.trace << ": " << ordered_note(trace) << "\n";
  if (moved > 0)
    std::cerr << "pilgrim-export: " << options.trace << ": " << moved
              << " calls started before their predecessor on the same thread ended (lossy "
                 "timing); their slices start at that end\n";
  return true;
}

} // namespace pilgrim::exporter
