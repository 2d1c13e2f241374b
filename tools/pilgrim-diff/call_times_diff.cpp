#include "call_times_diff.h"

#include <cmath>
#include <cstdio>
#include <vector>

#include "pilgrim/call_times.h"
#include "pilgrim/duration_text.h"
#include "pilgrim/run_frame.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_mode.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::diff {

namespace {

std::string percent(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", x * 100);
  return buf;
}

std::vector<CallTime> times_of(const Trace &t, uint32_t rank) {
  std::vector<CallTime> out;
  std::string error;
  if (!read_call_times(t, rank, out, error))
    throw TraceError(error);
  return out;
}

bool within(double a, double b, const TimeTolerance &tol) {
  const double d = std::fabs(b - a);
  return d <= tol.relative * std::fabs(a) || d <= tol.absolute;
}

} // namespace

std::string tolerance_text(const TimeTolerance &tol) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g%%", tol.relative * 100);
  std::string t = buf;
  if (tol.absolute > 0)
    t += " or " + duration_text(tol.absolute);
  return t;
}

std::string call_times_missing(const Trace &a, const Trace &b, const std::string &name_a,
                               const std::string &name_b) {
  for (const auto &[t, name] : {std::pair<const Trace &, const std::string &>(a, name_a),
                                std::pair<const Trace &, const std::string &>(b, name_b)})
    if (!has_call_times(t))
      return name + ": no per-call times (timing mode " + timing_mode_text(t.header.timing_mode) +
             "): --timing compares every call's times, traced with PILGRIM_TIMING=lossless "
             "or a lossy per-call mode; --mean-timing compares per-signature mean durations";
  return "";
}

DiffResult diff_call_times(const Trace &a, const Trace &b, const TimeTolerance &tol) {
  DiffResult r;
  for (uint32_t rank = 0; rank < a.nranks(); ++rank) {
    const std::vector<CallTime> ta = times_of(a, rank), tb = times_of(b, rank);
    if (ta.size() != tb.size()) {
      r.identical = false;
      r.message = "rank " + std::to_string(rank) +
                  ": call count differs: " + std::to_string(ta.size()) + " vs " +
                  std::to_string(tb.size());
      return r;
    }
    const std::vector<uint32_t> entries = call_entries(a, rank);
    const RankView view = a.rank(rank);
    const auto function_of = [&](size_t i) -> const FunctionInfo * {
      return i < entries.size() && entries[i] < view.cst->size()
                 ? a.function(signature_function_id((*view.cst)[entries[i]].signature))
                 : nullptr;
    };
    bool after_framing = true; // the previous call frames the run (or there is none)
    for (size_t i = 0; i < ta.size(); ++i) {
      const FunctionInfo *f = function_of(i);
      const bool framing = f && frames_run(f->name);
      const bool gap_counts = !after_framing;
      after_framing = framing;
      if (framing)
        continue;
      const double da = ta[i].end - ta[i].start, db = tb[i].end - tb[i].start;
      const char *what = nullptr;
      double va = 0, vb = 0;
      if (!within(da, db, tol)) {
        what = "duration";
        va = da;
        vb = db;
      } else if (gap_counts) {
        va = ta[i].start - ta[i - 1].end;
        vb = tb[i].start - tb[i - 1].end;
        if (!within(va, vb, tol))
          what = "gap before the call";
      }
      if (!what)
        continue;
      r.identical = false;
      r.message = "rank " + std::to_string(rank) + " call " + std::to_string(i) + ": " +
                  (f ? f->name : "?") + ": " + what + " differs: " + duration_text(va) + " vs " +
                  duration_text(vb) + " (" +
                  (va != 0 ? percent((vb - va) / std::fabs(va)) : std::string("from 0")) +
                  ", tolerance " + tolerance_text(tol) + ")";
      return r;
    }
    r.calls += ta.size();
  }
  return r;
}

} // namespace pilgrim::diff
