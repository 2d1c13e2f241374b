#include "trace_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "pilgrim/call_formatter.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/poll_call.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_error.h"
#include "strict_outputs.h"
#include "wildcard_match.h"

namespace pilgrim::diff {

namespace {

std::vector<DecodedCall> decode_all(const Trace &t) {
  std::vector<DecodedCall> calls;
  calls.reserve(t.merged.cst.size());
  for (size_t i = 0; i < t.merged.cst.size(); ++i) {
    try {
      calls.push_back(decode_signature(t, t.merged.cst[i].signature));
    } catch (const TraceError &e) {
      rethrow_with_context("CST entry " + std::to_string(i), e);
    }
  }
  return calls;
}

// A poll that found nothing: MPI_Test/Testany/Testall/Iprobe/Improbe/
// Win_test/Request_get_status with flag = 0, MPI_Testsome with outcount = 0. How many of these a
// completion loop makes depends on the run (paper §3.3.4); --relaxed skips them, and every
// MPI_Waitsome/Testsome.
bool is_failed_poll(const DecodedCall &call) {
  if (!call.function)
    return false;
  const std::string name = call.function->name;
  // How many calls MPI_Waitsome/Testsome take to complete a set of requests
  // depends on the run: --relaxed skips them all (the calls that use what
  // they completed, and the final state of the requests, are still compared).
  if (name == "MPI_Waitsome" || name == "MPI_Testsome")
    return true;
  return poll_outcome(call) == PollOutcome::Failed;
}

// One rank's calls in order, each with the context at its position; with
// `relaxed`, failed polls are skipped.
class CallStream {
public:
  CallStream(const Trace &t, const std::vector<DecodedCall> &calls, uint32_t rank, bool relaxed,
             bool strict)
      : view_(t.rank(rank)), walker_(*view_.rules, view_.root), calls_(calls),
        tracker_(CreationTracker::for_rank(t, rank, calls)), relaxed_(relaxed),
        filter_(strict, t.header.mpi_library.find("MPICH") != std::string::npos) {}
  bool next(uint64_t &terminal) {
    if (pending_ < calls_.size())
      take_effect(calls_[pending_]); // the previous call
    pending_ = UINT64_MAX;
    while (walker_.next(terminal)) {
      if (terminal >= calls_.size())
        return true;
      if (!relaxed_ || !is_failed_poll(calls_[terminal])) {
        pending_ = terminal;
        return true;
      }
      take_effect(calls_[terminal]);
    }
    return false;
  }
  // The context of the call next() returned last.
  CallContext context() const { return tracker_.context(); }
  const WildcardTracker &wildcards() const { return wildcards_; }
  // Which of its values are compared (--strict).
  const OutputFilter &filter() const { return filter_; }

private:
  RankView view_;
  GrammarWalker walker_;
  const std::vector<DecodedCall> &calls_;
  CreationTracker tracker_;
  bool relaxed_;
  OutputFilter filter_;
  uint64_t pending_ = UINT64_MAX;
  WildcardTracker wildcards_; // --relaxed only

  void take_effect(const DecodedCall &call) {
    tracker_.apply(call);
    filter_.apply(call);
    if (relaxed_)
      wildcards_.apply(call);
  }
};

std::string param_text(const DecodedCall &call, size_t p, const CallContext &ctx) {
  const DecodedParam &dp = call.params[p];
  std::string s;
  if (dp.has_in)
    append_value(s, call, p, dp.in, ctx);
  if (dp.has_in && dp.has_out)
    s += "->";
  if (dp.has_out)
    append_value(s, call, p, dp.out, ctx);
  return s;
}

// Parameter p's text with its elements in order of their codes (an array
// whose order the library chose).
std::string sorted_param_text(const DecodedCall &call, size_t p, const CallContext &ctx) {
  DecodedCall sorted = call;
  for (DecodedValue *v : {&sorted.params[p].in, &sorted.params[p].out})
    std::sort(v->elements.begin(), v->elements.end(),
              [](const DecodedElement &x, const DecodedElement &y) {
                return std::tie(x.code, x.integer) < std::tie(y.code, y.integer);
              });
  return param_text(sorted, p, ctx);
}

// The first difference between two calls with different signatures ("" when
// `relaxed` and the only differences are MPI_ANY_SOURCE ranks of A that B
// names, a proxy made with --deterministic, or statuses of wildcard receives).
std::string describe(const DecodedCall &a, const DecodedCall &b, const CallStream &sa,
                     const CallStream &sb, bool relaxed, const OutputFilter &filter) {
  const CallContext ca = sa.context(), cb = sb.context();
  const std::string na = a.function->name, nb = b.function->name;
  if (a.function_id != b.function_id)
    return "function differs: " + na + " vs " + nb;
  if (a.thread_id != b.thread_id)
    return na + ": thread differs: " + std::to_string(a.thread_id) + " vs " +
           std::to_string(b.thread_id);
  // Which requests MPI_Waitany/Waitsome/Testany/Testsome complete, and so
  // which are still active at the next such call, depends on the run.
  const bool any_completion = relaxed && (na == "MPI_Waitany" || na == "MPI_Testany");
  const size_t n = std::min(a.params.size(), b.params.size());
  bool filtered = false; // a difference in a value from the environment (--strict)
  for (size_t p = 0; p < n; ++p) {
    if (any_completion && a.function->params[p].role != Role::Value)
      continue; // requests, statuses
    if (any_completion && a.function->params[p].dir != Direction::In)
      continue; // index, outcount, array_of_indices
    // MPICH's error strings quote the failing call's addresses.
    if (relaxed && na == "MPI_Error_string" && a.function->params[p].dir != Direction::In)
      continue;
    const std::string ta = param_text(a, p, ca), tb = param_text(b, p, cb);
    if (ta != tb && relaxed && a.function->params[p].role == Role::Rank && ta == "MPI_ANY_SOURCE")
      continue;
    if (ta != tb && relaxed && a.function->params[p].role == Role::Status &&
        relaxed_statuses_equal(a, b, p, sa.wildcards(), sb.wildcards()))
      continue;
    if (ta != tb && filter.unordered(a, static_cast<int>(p)) &&
        sorted_param_text(a, p, ca) == sorted_param_text(b, p, cb)) {
      filtered = true;
      continue;
    }
    if (ta != tb && filter.ignored(a, static_cast<int>(p))) {
      filtered = true;
      continue;
    }
    if (ta != tb) {
      const char *name = a.function->params[p].name;
      return na + ": " + (name && *name ? name : "parameter " + std::to_string(p)) +
             " differs: " + ta + " vs " + tb;
    }
  }
  // MPICH's error codes carry a per-run error-stack index: --relaxed takes
  // two failures as equal (the calls that read the code are still compared).
  if (a.return_code != b.return_code &&
      (filter.ignored(a, -1) || filter.same_error(a.return_code, b.return_code)))
    filtered = true;
  else if (a.return_code != b.return_code && !(relaxed && a.return_code != 0 && b.return_code != 0))
    return na + ": return code differs: " + format_return_code(a.return_code) + " vs " +
           format_return_code(b.return_code);
  if (relaxed || filtered)
    return "";
  // The function-table rows differ (a trace from another MPI): same text.
  return na + ": encoding differs (function-table rows differ)";
}

std::string pct(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.0f%%", x * 100);
  return buf;
}

std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

} // namespace

DiffResult diff_traces(const Trace &a, const Trace &b, const DiffSettings &settings) {
  DiffResult r;
  if (a.nranks() != b.nranks()) {
    r.identical = false;
    r.message =
        "rank count differs: " + std::to_string(a.nranks()) + " vs " + std::to_string(b.nranks());
    return r;
  }
  const std::vector<DecodedCall> ca = decode_all(a);
  const std::vector<DecodedCall> cb = decode_all(b);
  for (uint32_t rank = 0; rank < a.nranks(); ++rank) {
    CallStream sa(a, ca, rank, settings.relaxed, settings.strict),
        sb(b, cb, rank, settings.relaxed, settings.strict);
    const std::string prefix = "rank " + std::to_string(rank) + " call ";
    uint64_t index = 0, ta = 0, tb = 0;
    for (;; ++index) {
      const bool ha = sa.next(ta), hb = sb.next(tb);
      if (!ha && !hb)
        break;
      if (ha != hb) {
        r.identical = false;
        r.message = prefix + std::to_string(index) + ": " +
                    (ha ? std::string(ca[ta].function->name) + " vs end of trace"
                        : "end of trace vs " + std::string(cb[tb].function->name));
        return r;
      }
      if (a.merged.cst[ta].signature != b.merged.cst[tb].signature) {
        const std::string d = describe(ca[ta], cb[tb], sa, sb, settings.relaxed, sa.filter());
        if (d.empty())
          continue;
        r.identical = false;
        r.message = prefix + std::to_string(index) + ": " + d;
        return r;
      }
    }
    r.calls += index;
  }
  if (settings.timing) {
    std::unordered_map<std::string_view, size_t> in_b;
    for (size_t i = 0; i < b.merged.cst.size(); ++i)
      in_b.emplace(b.merged.cst[i].signature, i);
    for (size_t i = 0; i < a.merged.cst.size(); ++i) {
      const auto it = in_b.find(a.merged.cst[i].signature);
      if (it == in_b.end())
        continue;
      const TimingStats &da = a.merged.cst[i].duration;
      const TimingStats &db = b.merged.cst[it->second].duration;
      if (da.n == 0 || db.n == 0)
        continue;
      const double base = std::max(std::fabs(da.mean), 1e-300);
      const double rel = (db.mean - da.mean) / base;
      if (std::fabs(rel) > settings.tolerance) {
        r.identical = false;
        r.message = "timing: " + std::string(ca[i].function->name) + " (CST entry " +
                    std::to_string(i) + "): mean duration differs: " + sci(da.mean) + " s vs " +
                    sci(db.mean) + " s (" + pct(rel) + ", tolerance " +
                    pct(settings.tolerance).substr(1) + ")";
        return r;
      }
    }
  }
  return r;
}

} // namespace pilgrim::diff
