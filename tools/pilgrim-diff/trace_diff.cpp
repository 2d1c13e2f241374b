#include "trace_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "pilgrim/call_formatter.h"
#include "pilgrim/poll_call.h"
#include "pilgrim/rank_calls.h"
#include "strict_outputs.h"
#include "wildcard_match.h"

namespace pilgrim::diff {

namespace {

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

// One rank's calls in order, each resolved at its position (RankCalls); with
// `relaxed`, failed polls are skipped.
class CallStream {
public:
  CallStream(const Trace &t, const std::vector<DecodedCall> &calls, uint32_t rank, bool relaxed,
             bool strict)
      : walk_(t, calls, rank), relaxed_(relaxed),
        filter_(strict, t.header.mpi_library.find("MPICH") != std::string::npos) {}
  bool next() {
    if (pending_)
      take_effect(walk_.call()); // the previous call
    pending_ = false;
    while (walk_.advance()) {
      if (!relaxed_ || !is_failed_poll(walk_.coded())) {
        pending_ = true;
        return true;
      }
      take_effect(walk_.call());
    }
    return false;
  }
  // The call next() returned last, its CST entry.
  const Call &call() { return walk_.call(); }
  uint64_t terminal() const { return walk_.terminal(); }
  const WildcardTracker &wildcards() const { return wildcards_; }
  // Which of its values are compared (--strict).
  const OutputFilter &filter() const { return filter_; }

private:
  RankCalls walk_;
  bool relaxed_;
  OutputFilter filter_;
  bool pending_ = false;
  WildcardTracker wildcards_; // --relaxed only

  // What the call changes for the calls after it, besides what RankCalls
  // tracks (the ids it creates).
  void take_effect(const Call &call) {
    filter_.apply(call);
    if (relaxed_)
      wildcards_.apply(call);
  }
};

// Argument p's text with its elements in order of their codes (an array
// whose order the library chose).
std::string sorted_arg_text(const CallArg &arg) {
  CallArg sorted = arg;
  for (CallValue *v : {&sorted.in, &sorted.out})
    std::sort(v->elements.begin(), v->elements.end(),
              [](const CallElement &x, const CallElement &y) {
                return std::tie(x.coded->code, x.integer) < std::tie(y.coded->code, y.integer);
              });
  return format_arg(sorted);
}

// The first difference between two calls with different signatures ("" when
// `relaxed` and the only differences are MPI_ANY_SOURCE ranks of A that B
// names, a proxy made with --deterministic, or statuses of wildcard receives).
std::string describe(const Call &a, const Call &b, const CallStream &sa, const CallStream &sb,
                     bool relaxed, const OutputFilter &filter) {
  const std::string na = a.function->name, nb = b.function->name;
  if (a.function_id != b.function_id)
    return "function differs: " + na + " vs " + nb;
  if (a.thread != b.thread)
    return na + ": thread differs: " + std::to_string(a.thread) + " vs " + std::to_string(b.thread);
  // Which requests MPI_Waitany/Waitsome/Testany/Testsome complete, and so
  // which are still active at the next such call, depends on the run.
  const bool any_completion = relaxed && (na == "MPI_Waitany" || na == "MPI_Testany");
  const size_t n = std::min(a.args.size(), b.args.size());
  bool filtered = false; // a difference in a value from the environment (--strict)
  for (size_t p = 0; p < n; ++p) {
    const ParamInfo &pi = *a.args[p].param;
    if (any_completion && pi.role != Role::Value)
      continue; // requests, statuses
    if (any_completion && pi.dir != Direction::In)
      continue; // index, outcount, array_of_indices
    // MPICH's error strings quote the failing call's addresses.
    if (relaxed && na == "MPI_Error_string" && pi.dir != Direction::In)
      continue;
    const std::string ta = format_arg(a.args[p]), tb = format_arg(b.args[p]);
    if (ta != tb && relaxed && pi.role == Role::Rank && ta == "MPI_ANY_SOURCE")
      continue;
    if (ta != tb && relaxed && pi.role == Role::Status &&
        relaxed_statuses_equal(a, b, p, sa.wildcards(), sb.wildcards()))
      continue;
    if (ta != tb && filter.unordered(a, static_cast<int>(p)) &&
        sorted_arg_text(a.args[p]) == sorted_arg_text(b.args[p])) {
      filtered = true;
      continue;
    }
    if (ta != tb && filter.ignored(a, static_cast<int>(p))) {
      filtered = true;
      continue;
    }
    if (ta != tb) {
      const char *name = pi.name;
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
  const std::vector<DecodedCall> ca = decode_cst(a);
  const std::vector<DecodedCall> cb = decode_cst(b);
  for (uint32_t rank = 0; rank < a.nranks(); ++rank) {
    CallStream sa(a, ca, rank, settings.relaxed, settings.strict),
        sb(b, cb, rank, settings.relaxed, settings.strict);
    const std::string prefix = "rank " + std::to_string(rank) + " call ";
    uint64_t index = 0;
    for (;; ++index) {
      const bool ha = sa.next(), hb = sb.next();
      if (!ha && !hb)
        break;
      if (ha != hb) {
        r.identical = false;
        r.message = prefix + std::to_string(index) + ": " +
                    (ha ? std::string(ca[sa.terminal()].function->name) + " vs end of trace"
                        : "end of trace vs " + std::string(cb[sb.terminal()].function->name));
        return r;
      }
      if (a.merged.cst[sa.terminal()].signature != b.merged.cst[sb.terminal()].signature) {
        const std::string d = describe(sa.call(), sb.call(), sa, sb, settings.relaxed, sa.filter());
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
    // Per signature: entries that differ only in their call site (format
    // version 8) are one call here, their timing merged.
    auto by_signature = [](const Trace &t) {
      std::unordered_map<std::string_view, std::pair<size_t, TimingStats>> m;
      for (size_t i = 0; i < t.merged.cst.size(); ++i) {
        auto it = m.emplace(t.merged.cst[i].signature, std::make_pair(i, TimingStats{})).first;
        merge_stats(it->second.second, t.merged.cst[i].duration);
      }
      return m;
    };
    const auto in_a = by_signature(a), in_b = by_signature(b);
    for (size_t i = 0; i < a.merged.cst.size(); ++i) {
      const auto ia = in_a.find(a.merged.cst[i].signature);
      if (ia->second.first != i)
        continue; // the signature's first entry stands for all of them
      const auto it = in_b.find(a.merged.cst[i].signature);
      if (it == in_b.end())
        continue;
      const TimingStats &da = ia->second.second;
      const TimingStats &db = it->second.second;
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
