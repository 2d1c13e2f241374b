#include "proxy_writer.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <vector>

#include "call_emitter.h"
#include "order_replay.h"
#include "call_gaps.h"
#include "call_shapes.h"
#include "gap_replay.h"
#include "generalized_requests.h"
#include "pilgrim/call_sites.h"
#include "pilgrim/call_times.h"
#include "pilgrim/count_text.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/poll_call.h"
#include "pilgrim/predefined_handles.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/record_ranges.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_error.h"
#include "proxy_prelude.h"
#include "timing_model.h"
#include "wildcard_sources.h"

#ifndef PILGRIM_VERSION
#define PILGRIM_VERSION "0.1.0"
#endif

namespace pilgrim::proxygen {

namespace {

// What a call does in a completion loop (poll_call.h); `flag_param` gets
// the variable that holds its flag ("out_flag", "out_outcount").
enum class Poll { No, Failed, Succeeded };
// A poll that could not have succeeded (generalized_requests.h) is a plain
// call.
Poll poll_kind(const Call &call, std::string &flag_param, const GeneralizedRequests &generalized) {
  const char *flag = nullptr;
  const PollOutcome outcome = poll_outcome(*call.coded, &flag);
  if (outcome == PollOutcome::NotPoll ||
      (outcome == PollOutcome::Failed && generalized.only_generalized(call)))
    return Poll::No;
  flag_param = std::string("out_") + flag;
  return outcome == PollOutcome::Failed ? Poll::Failed : Poll::Succeeded;
}

std::string ranks_text(uint32_t n) { return count_text(n, "rank"); }

std::string fmt_double(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  std::string s = buf;
  if (s.find_first_of(".e") == std::string::npos)
    s += ".0";
  return s;
}

class Writer {
public:
  Writer(const Trace &trace, const ProxyOptions &options)
      : trace_(trace), options_(options), emitter_(trace, options, symbols_),
        rules_(trace.merged.rules), roots_(trace.merged.roots), positions_(trace.merged.rules),
        per_call_(options.compute != Compute::None && has_call_times(trace)) {
    for (size_t r = 0; r < rules_.rules.size(); ++r) {
      origin_.emplace_back(rules_.rules[r].size());
      for (size_t j = 0; j < rules_.rules[r].size(); ++j)
        origin_[r][j] = static_cast<int64_t>(positions_.of(r, j));
    }
    slot_of_.assign(positions_.count, -1);
  }

  ProxySource run();

private:
  uint64_t first_terminal(uint64_t rule) const;
  uint64_t drop_first(uint64_t rule);
  void count_references();
  const std::vector<std::string> &terminal_lines(uint64_t t);
  std::vector<std::string> call_lines(uint64_t t, int64_t position);
  void emit_symbol(const GrammarSymbol &s, int64_t position, int indent, int loop_depth,
                   std::vector<std::string> &out, int64_t follow);
  void emit_body(uint64_t rule, int indent, int loop_depth, std::vector<std::string> &out,
                 int64_t follow);
  bool completion_loop(const GrammarSymbol &s, int64_t next) const;
  std::vector<size_t> kept_symbols(uint64_t rule, int64_t follow) const;
  void mark_table(uint64_t rule);
  uint32_t run_of(uint64_t rule);
  int64_t first_of(const GrammarSymbol &s) const;
  std::vector<std::string> address_layout() const;

  const Trace &trace_;
  const ProxyOptions &options_;
  ProxySymbols symbols_;
  CallEmitter emitter_;
  Grammar rules_;
  std::vector<uint64_t> roots_;
  std::vector<DecodedCall> coded_;  // the CST entries decoded
  std::vector<Call> calls_;         // and resolved without a position (proxies are per entry)
  FilePlan files_;                  // files opened in a scratch directory (file_replay.h)
  GeneralizedRequests generalized_; // polls that cannot succeed (generalized_requests.h)
  std::vector<double> gaps_;        // per terminal, from aggregate timing (timing_model.h)
  // Per-call timing (call_gaps.h): each symbol's grammar position in the
  // trace's rule pool (-1 for a rule), and each position's gap slot.
  GrammarPositions positions_;
  bool per_call_;
  std::vector<std::vector<int64_t>> origin_;
  std::vector<int64_t> slot_of_;
  size_t slots_ = 0;
  std::map<uint64_t, uint64_t> dropped_; // rule -> the same rule without its first call
  std::vector<uint64_t> refs_;
  std::vector<bool> function_rule_;
  std::map<uint64_t, std::vector<std::string>> lines_;
  CallShapes shapes_;            // rules as data (call_shapes.h)
  std::vector<bool> table_rule_; // rules replayed from a run of steps
  std::map<uint64_t, uint32_t> runs_;
  static constexpr size_t kManyRules = 256;
};

uint64_t Writer::first_terminal(uint64_t rule) const {
  for (size_t guard = 0; guard <= rules_.rules.size(); ++guard) {
    if (rule >= rules_.rules.size() || rules_.rules[rule].empty())
      throw TraceError("a rank's grammar is empty or malformed");
    const GrammarSymbol &s = rules_.rules[rule][0];
    if (!s.is_rule())
      return static_cast<uint64_t>(s.value);
    rule = s.rule();
  }
  throw TraceError("a rank's grammar is cyclic");
}

// A new rule that expands to `rule`'s expansion without its first call.
uint64_t Writer::drop_first(uint64_t rule) {
  const auto it = dropped_.find(rule);
  if (it != dropped_.end())
    return it->second;
  std::vector<GrammarSymbol> body = rules_.rules[rule];
  std::vector<int64_t> origin = origin_[rule];
  const GrammarSymbol first = body[0];
  const int64_t first_origin = origin[0];
  body.erase(body.begin());
  origin.erase(origin.begin());
  std::vector<GrammarSymbol> head;
  std::vector<int64_t> head_origin;
  if (first.is_rule()) {
    head.push_back(GrammarSymbol::nonterminal(drop_first(first.rule()), 1));
    head_origin.push_back(-1);
    if (first.exp > 1) {
      head.push_back(GrammarSymbol{first.value, first.exp - 1});
      head_origin.push_back(-1);
    }
  } else if (first.exp > 1) {
    head.push_back(GrammarSymbol{first.value, first.exp - 1});
    head_origin.push_back(first_origin);
  }
  body.insert(body.begin(), head.begin(), head.end());
  origin.insert(origin.begin(), head_origin.begin(), head_origin.end());
  rules_.rules.push_back(body);
  origin_.push_back(origin);
  const uint64_t index = rules_.rules.size() - 1;
  dropped_[rule] = index;
  return index;
}

void Writer::count_references() {
  refs_.assign(rules_.rules.size(), 0);
  std::vector<bool> seen(rules_.rules.size(), false);
  std::vector<uint64_t> stack;
  for (uint64_t r : roots_) {
    ++refs_[r];
    if (!seen[r]) {
      seen[r] = true;
      stack.push_back(r);
    }
  }
  while (!stack.empty()) {
    const uint64_t r = stack.back();
    stack.pop_back();
    for (const GrammarSymbol &s : rules_.rules[r])
      if (s.is_rule() && s.rule() < rules_.rules.size()) {
        ++refs_[s.rule()];
        if (!seen[s.rule()]) {
          seen[s.rule()] = true;
          stack.push_back(s.rule());
        }
      }
  }
  function_rule_.assign(rules_.rules.size(), false);
  for (size_t r = 0; r < refs_.size(); ++r)
    function_rule_[r] = refs_[r] >= 2;
  // Rules written as data (call_shapes.h): a rule of --table-runs or more
  // symbols, and when the grammar has more than kManyRules rule functions (an
  // irregular trace, a rule per chance repetition), every rule; with each of
  // them, every rule it refers to. They are replayed by replay_run, never as
  // functions of their own.
  table_rule_.assign(rules_.rules.size(), false);
  if (options_.table_runs == 0)
    return;
  size_t functions = 0;
  for (size_t r = 0; r < rules_.rules.size(); ++r) {
    if (refs_[r] && kept_symbols(r, -1).size() >= options_.table_runs)
      mark_table(r);
    functions += function_rule_[r] ? 1 : 0;
  }
  if (functions > kManyRules)
    for (size_t r = 0; r < rules_.rules.size(); ++r)
      if (refs_[r])
        mark_table(r);
  for (size_t r = 0; r < rules_.rules.size(); ++r)
    if (table_rule_[r])
      function_rule_[r] = false;
}

void Writer::mark_table(uint64_t rule) {
  std::vector<uint64_t> todo{rule};
  while (!todo.empty()) {
    const uint64_t r = todo.back();
    todo.pop_back();
    if (r >= table_rule_.size() || table_rule_[r])
      continue;
    table_rule_[r] = true;
    for (const GrammarSymbol &s : rules_.rules[r])
      if (s.is_rule())
        todo.push_back(s.rule());
  }
}

// The run of steps that replays table rule `rule` (built once).
uint32_t Writer::run_of(uint64_t rule) {
  const auto known = runs_.find(rule);
  if (known != runs_.end())
    return known->second;
  const uint32_t run = shapes_.reserve_run();
  runs_.emplace(rule, run);
  const std::vector<GrammarSymbol> body = rules_.rules[rule];
  std::vector<CallShapes::Step> steps;
  for (size_t i : kept_symbols(rule, -1)) {
    const GrammarSymbol &s = body[i];
    if (s.is_rule()) {
      steps.push_back({CallShapes::kRunStep, run_of(s.rule()), s.exp});
    } else {
      const uint64_t t = static_cast<uint64_t>(s.value);
      const int64_t position = origin_[rule][i];
      const auto at = shapes_.add(static_cast<uint64_t>(position), call_lines(t, position));
      steps.push_back({at.first, at.second, s.exp});
    }
  }
  shapes_.set_run(run, std::move(steps));
  return run;
}

// The symbols of `rule` that are replayed: all but the failed polls of a
// completion loop (completion_loop), which the poll that succeeded replaces.
std::vector<size_t> Writer::kept_symbols(uint64_t rule, int64_t follow) const {
  const std::vector<GrammarSymbol> &body = rules_.rules[rule];
  std::vector<size_t> kept;
  for (size_t i = 0; i < body.size(); ++i) {
    const int64_t next = i + 1 < body.size() ? first_of(body[i + 1]) : follow;
    if (options_.order || !completion_loop(body[i], next))
      kept.push_back(i);
  }
  return kept;
}

const std::vector<std::string> &Writer::terminal_lines(uint64_t t) {
  auto it = lines_.find(t);
  if (it != lines_.end())
    return it->second;
  std::vector<std::string> lines;
  const Call &call = calls_.at(t);
  std::string flag;
  // --order: every poll as recorded; replay answers it as the trace did.
  const Poll poll = options_.order ? Poll::No : poll_kind(call, flag, generalized_);
  {
    std::vector<std::string> body;
    try {
      body = emitter_.emit(call);
    } catch (const TraceError &e) {
      rethrow_with_context("CST entry " + std::to_string(t), e);
    }
    if (poll == Poll::Failed) {
      // A poll that found nothing in the original run changes nothing, and
      // here it might find something, leaving the completion loop that
      // follows (maybe in another rule) polling an inactive request: the
      // polling is left to that loop, and only the time is kept.
      body.clear();
      body.push_back("// a poll that found nothing: polled by the completion loop that follows");
    }
    if (poll == Poll::Succeeded) {
      // A completion loop: poll until the requests complete.
      lines.push_back("do {");
      for (const std::string &l : body)
        lines.push_back("  " + l);
      lines.push_back("} while (" +
                      std::string(flag == "out_outcount" ? "out_outcount == 0" : "!" + flag) +
                      ");");
    } else {
      lines.insert(lines.end(), body.begin(), body.end());
    }
  }
  // Where the original program made the call (docs/DUMP.md, "Call sites"):
  // a comment at the end of the call's line (the first that calls the
  // function; the last line otherwise), with no character that could
  // continue the comment onto the next line.
  if (const CallSite *site = call_site(trace_, t); site && !lines.empty()) {
    std::string text = site_text(*site);
    for (char &c : text)
      if (static_cast<unsigned char>(c) < 0x20 || c == '\\' || c == 0x7f)
        c = '?';
    const std::string callee = std::string(call.name() ? call.name() : "") + "(";
    auto at = std::find_if(lines.begin(), lines.end(), [&](const std::string &l) {
      return callee.size() > 1 && l.find(callee) != std::string::npos;
    });
    (at == lines.end() ? lines.back() : *at) += " // at " + text;
  }
  return lines_.emplace(t, std::move(lines)).first->second;
}

// A call's lines at grammar position `position`, after the computation
// before it. A record that is not an MPI call is no call of the proxy's: no
// computation before it (per-call gaps hand its gap on to the next call).
std::vector<std::string> Writer::call_lines(uint64_t t, int64_t position) {
  std::vector<std::string> lines;
  const bool record = is_record(calls_.at(t).function_id);
  if (per_call_ && !record && position >= 0) {
    int64_t &slot = slot_of_.at(static_cast<size_t>(position));
    if (slot < 0)
      slot = static_cast<int64_t>(slots_++);
    lines.push_back("gap(" + std::to_string(slot) + ");");
  } else if (!per_call_ && !record && t < gaps_.size() && gaps_[t] >= 1e-7) {
    lines.push_back("compute(" + fmt_double(gaps_[t]) + ");");
  }
  const std::vector<std::string> &call = terminal_lines(t);
  lines.insert(lines.end(), call.begin(), call.end());
  return lines;
}

void Writer::emit_symbol(const GrammarSymbol &s, int64_t position, int indent, int loop_depth,
                         std::vector<std::string> &out, int64_t follow) {
  const std::string pad(static_cast<size_t>(indent) * 2, ' ');
  int inner = indent;
  std::string var;
  if (s.exp > 1) {
    var = "i" + std::to_string(loop_depth);
    out.push_back(pad + "for (long long " + var + " = 0; " + var + " < " + std::to_string(s.exp) +
                  "; ++" + var + ") {");
    ++inner;
  }
  const std::string ipad(static_cast<size_t>(inner) * 2, ' ');
  if (s.is_rule()) {
    if (function_rule_[s.rule()])
      out.push_back(ipad + "rule_" + std::to_string(s.rule()) + "();");
    else
      emit_body(s.rule(), inner, loop_depth + (s.exp > 1 ? 1 : 0), out, s.exp > 1 ? -1 : follow);
  } else {
    for (const std::string &l : call_lines(static_cast<uint64_t>(s.value), position))
      out.push_back(ipad + l);
  }
  if (s.exp > 1)
    out.push_back(pad + "}");
}

// A run of failed polls right before the poll that succeeded (`next`, the
// first call after them, or -1 when unknown) is the program's completion
// loop: the successful poll is replayed as a loop (terminal_lines), the
// failed ones are left out.
bool Writer::completion_loop(const GrammarSymbol &s, int64_t next) const {
  if (s.is_rule() || next < 0)
    return false;
  std::string flag;
  const Call &a = calls_.at(static_cast<uint64_t>(s.value));
  const Call &b = calls_.at(static_cast<uint64_t>(next));
  return poll_kind(a, flag, generalized_) == Poll::Failed &&
         poll_kind(b, flag, generalized_) == Poll::Succeeded && a.function_id == b.function_id;
}

int64_t Writer::first_of(const GrammarSymbol &s) const {
  return s.is_rule() ? static_cast<int64_t>(first_terminal(s.rule())) : s.value;
}

// `follow`: the call after this rule's expansion where the caller knows it
// (an inlined rule), else -1. A table rule is one statement.
void Writer::emit_body(uint64_t rule, int indent, int loop_depth, std::vector<std::string> &out,
                       int64_t follow) {
  if (rule < table_rule_.size() && table_rule_[rule]) {
    out.push_back(std::string(static_cast<size_t>(indent) * 2, ' ') + "replay_run(" +
                  std::to_string(run_of(rule)) + ");");
    return;
  }
  const std::vector<GrammarSymbol> body = rules_.rules[rule];
  for (size_t i : kept_symbols(rule, follow))
    emit_symbol(body[i], origin_[rule][i], indent, loop_depth, out,
                i + 1 < body.size() ? first_of(body[i + 1]) : follow);
}

// MPI_Aint_diff(a, b) recorded a - b for two address ids: addresses that
// the program took inside one object (members of a struct). They are laid out
// at the same distances inside the buffer that is one of them, or inside an
// address's own storage, so that the replayed differences are the recorded ones.
std::vector<std::string> Writer::address_layout() const {
  std::map<uint64_t, std::pair<uint64_t, int64_t>> parent; // id -> (parent, offset from parent)
  std::function<std::pair<uint64_t, int64_t>(uint64_t)> find = [&](uint64_t x) {
    auto it = parent.find(x);
    if (it == parent.end() || it->second.first == x)
      return std::make_pair(x, int64_t{0});
    const auto up = find(it->second.first);
    it->second = {up.first, it->second.second + up.second};
    return it->second;
  };
  for (const Call &c : calls_) {
    if (std::string(c.function->name) != "MPI_Aint_diff" || c.args.size() != 2)
      continue;
    const CallValue *a = c.args[0].any(), *b = c.args[1].any();
    if (!a || !b || a->elements.size() != 1 || b->elements.size() != 1 ||
        c.function->params[0].role != Role::Pointer ||
        c.function->params[1].role != Role::Pointer || a->elements[0].null || b->elements[0].null)
      continue;
    const uint64_t ia = static_cast<uint64_t>(a->elements[0].memory),
                   ib = static_cast<uint64_t>(b->elements[0].memory);
    const auto ra = find(ia), rb = find(ib);
    if (ra.first == rb.first)
      continue;
    // address(a) = address(b) + rc: root(a) = root(b) + rc + off(b) - off(a)
    parent[ra.first] = {rb.first, c.return_code + rb.second - ra.second};
    parent.emplace(rb.first, std::make_pair(rb.first, int64_t{0}));
  }
  // Members of each group, with offsets from the group's root.
  std::map<uint64_t, std::vector<std::pair<uint64_t, int64_t>>> groups;
  for (const auto &p : parent)
    if (symbols_.pointers.count(p.first))
      groups[find(p.first).first].push_back({p.first, find(p.first).second});
  std::vector<std::string> lines;
  for (const auto &g : groups) {
    if (g.second.size() < 2)
      continue;
    // The anchor: the lowest address (the object's start) when it is a
    // buffer, else a member that is a buffer, else the lowest address.
    const std::pair<uint64_t, int64_t> *anchor = nullptr;
    int64_t low = 0, high = 0;
    for (const auto &m : g.second) {
      low = std::min(low, m.second);
      high = std::max(high, m.second);
    }
    for (const auto &m : g.second)
      if (symbols_.buffers.count(m.first) && (!anchor || m.second == low))
        anchor = &m;
    if (!anchor) {
      for (const auto &m : g.second)
        if (m.second == low)
          anchor = &m;
      if (high - low > 48)
        continue; // beyond the address's own storage (64 bytes)
    }
    for (const auto &m : g.second) {
      const int64_t d = m.second - anchor->second;
      if (&m == anchor || d < 0)
        continue;
      const std::string base =
          symbols_.buffers.count(anchor->first)
              ? "buf_" + std::to_string(anchor->first)
              : "static_cast<char *>(pointer_" + std::to_string(anchor->first) + ")";
      lines.push_back("pointer_" + std::to_string(m.first) + " = " + base + " + " +
                      std::to_string(d) + ";");
    }
  }
  return lines;
}

ProxySource Writer::run() {
  const MergedTrace &m = trace_.merged;
  coded_ = decode_cst(trace_);
  calls_.reserve(coded_.size());
  for (const DecodedCall &c : coded_)
    calls_.push_back(resolve_call(c));
  for (const Call &c : calls_)
    emitter_.learn(c);
  files_ = FilePlan(trace_, calls_);
  generalized_ = GeneralizedRequests(calls_);
  emitter_.set_files(&files_);
  if (options_.deterministic) {
    std::map<const DecodedCall *, std::vector<int64_t>> sources;
    for (auto &[t, per_rank] : irecv_sources(trace_, calls_))
      sources[&coded_.at(t)] = std::move(per_rank);
    emitter_.set_irecv_sources(std::move(sources));
  }
  if (options_.compute != Compute::None && !per_call_)
    gaps_ = estimate_gaps(trace_);
  if (options_.gaps == Gaps::Exact && !per_call_)
    throw TraceError(
        options_.compute == Compute::None
            ? "--gaps=exact replays gaps, which --compute=none leaves out"
            : "--gaps=exact needs a trace with per-call times (PILGRIM_TIMING=lossless, "
              "hist:..., cfg:..., pred:... or zfp:...), not timing mode aggregate or none");
  if (options_.gaps == Gaps::Exact && (options_.output_path.empty() || options_.output_path == "-"))
    throw TraceError(
        "--gaps=exact writes its gaps beside the proxy: give the proxy a file with -o");
  if (roots_.empty())
    throw TraceError("the trace has no calls");

  // Every rank's first call initializes MPI; main makes it before it knows
  // the rank, so it is taken out of the grammars.
  const uint64_t init = first_terminal(roots_[0]);
  const std::string init_name = calls_.at(init).function->name;
  if (init_name != "MPI_Init" && init_name != "MPI_Init_thread")
    throw TraceError("the first call is " + init_name + ", not MPI_Init or MPI_Init_thread");
  for (const RankRange &range : m.rank_map)
    if (first_terminal(roots_.at(range.grammar)) != init)
      throw TraceError("ranks " + std::to_string(range.first) +
                       "... do not begin with the same MPI_Init call as rank 0");
  std::set<uint64_t> used_roots;
  for (const RankRange &range : m.rank_map)
    used_roots.insert(range.grammar);
  for (uint64_t g : used_roots)
    roots_[g] = drop_first(roots_[g]);
  count_references();

  std::vector<std::string> init_lines = emitter_.emit(calls_.at(init));

  // Function bodies (this also collects the symbols to declare).
  std::vector<std::pair<std::string, std::vector<std::string>>> functions;
  for (size_t r = 0; r < rules_.rules.size(); ++r) {
    if (!function_rule_[r])
      continue;
    std::vector<std::string> body;
    emit_body(r, 1, 0, body, -1);
    functions.push_back({"rule_" + std::to_string(r), std::move(body)});
  }
  for (uint64_t g : used_roots) {
    std::vector<std::string> body;
    emit_symbol(GrammarSymbol::nonterminal(roots_[g], 1), -1, 1, 0, body, -1);
    functions.push_back({"grammar_" + std::to_string(g), std::move(body)});
  }

  std::string o;
  auto line = [&o](const std::string &l) {
    o += l;
    o += '\n';
  };
  line("// Proxy app generated by pilgrim-proxygen " PILGRIM_VERSION ".");
  line("// Trace: " + options_.trace_path + " (" + ranks_text(trace_.nranks()) + ", " +
       trace_.header.mpi_library + ").");
  line("// It makes the traced MPI calls with the same arguments: handles as variables,");
  line("// buffers as one allocation per buffer id filled with a fixed pattern, ranks as");
  line("// offsets from the caller's rank. It needs exactly " + ranks_text(trace_.nranks()) + ".");
  const char *mode = options_.compute == Compute::None    ? "none (no computation replayed)"
                     : options_.compute == Compute::Sleep ? "sleep (gaps replayed as sleeps)"
                     : options_.compute == Compute::Spin
                         ? "spin (gaps replayed as busy waits)"
                         : "auto (gaps replayed as busy waits, as "
                           "sleeps on a node with more ranks than cores)";
  line(std::string("// Compute: ") + mode + "; PILGRIM_PROXY_COMPUTE=spin|sleep|auto overrides.");
  if (per_call_)
    line(std::string("// Gaps: each call's from the trace's per-call times, ") +
         (options_.gaps == Gaps::Exact ? "its own (--gaps=exact), read from the gaps file"
          : options_.gaps == Gaps::Mean
              ? "the mean of its grammar position's (--gaps=mean)"
              : "drawn from its grammar position's (--gaps=distribution)") +
         ".");
  if (options_.deterministic)
    line("// --deterministic: MPI_ANY_SOURCE receives use the recorded source.");
  if (options_.order) {
    line("// --order: every matching call as recorded, wildcards kept, matched in the");
    line("// recorded order: by the order compiled in (below) when it runs alone, by the");
    line("// tracer under libpilgrim.so with PILGRIM_REPLAY=<the trace>.");
  } else {
    line("// Completion loops (MPI_Test*, MPI_Iprobe) poll until they succeed; compare");
    line("// traces of such programs with 'pilgrim-diff --relaxed'.");
  }
  if (symbols_.user_ops)
    line("// NOTE: user reduction operators are replaced by user_op<ID>, a deterministic\n"
         "// commutative byte-wise XOR: the proxy reproduces the MPI calls, not the values.");
  line("// Build: mpicxx -std=c++17 -O2 THIS_FILE -o proxy");
  line("");
  const int compute_mode = options_.compute == Compute::Spin    ? 1
                           : options_.compute == Compute::Sleep ? 2
                           : options_.compute == Compute::Auto  ? 3
                                                                : 0;
  line("#define PROXY_COMPUTE " + std::to_string(compute_mode));
  o += kProxyPrelude;
  if (options_.order)
    o += order_replay_code(trace_, coded_, options_.trace_path);
  o += address_prelude(symbols_);
  o += files_.prelude(options_.io_dir, options_.keep_io_files);
  MeasuredGaps measured;
  if (per_call_) {
    measured = measure_gaps(trace_, positions_, slot_of_, slots_, options_.gaps == Gaps::Exact);
    const GapMode mode = options_.gaps == Gaps::Exact  ? GapMode::Exact
                         : options_.gaps == Gaps::Mean ? GapMode::Mean
                                                       : GapMode::Distribution;
    for (const std::string &l : gap_replay_code(measured, mode, options_.output_path + ".gaps"))
      line(l);
  }

  line("// ---- replayed state --------------------------------------------------------");
  line("");
  line("const int kTraceRanks = " + std::to_string(trace_.nranks()) + ";");
  line("");
  if (!symbols_.handles.empty()) {
    line("// Handles, one variable per symbolic id of the trace.");
    for (const auto &h : symbols_.handles) {
      const char *type = h.first == HandleKind::Keyval ? "int" : nullptr;
      const std::string t =
          type ? type
               : element_type(ParamInfo{"", "", CType::Handle, Role::Handle, Direction::In, h.first,
                                        HandleAction::None, 0, -1, -1, -1, 0, nullptr, nullptr});
      line(t + " " + handle_variable(h.first, h.second) + " = " + null_handle_name(h.first) + ";");
    }
    line("");
  }
  if (!symbols_.buffers.empty()) {
    line("// Buffers, one per buffer id, sized for the largest use.");
    for (const auto &b : symbols_.buffers)
      line("char *buf_" + std::to_string(b.first) + " = nullptr;\nstd::size_t buf_" +
           std::to_string(b.first) +
           "_size = " + std::to_string(address_storage_bytes(symbols_, b.first, b.second)) + ";");
    line("");
  }
  if (!symbols_.pointers.empty()) {
    line("// Addresses the trace names (attribute values, memory MPI allocates).");
    for (uint64_t p : symbols_.pointers)
      line("char pointer_storage_" + std::to_string(p) + "[64];\nvoid *pointer_" +
           std::to_string(p) + " = pointer_storage_" + std::to_string(p) + ";");
    line("");
  }
  if (!symbols_.scalars.empty() || !symbols_.arrays.empty() || symbols_.status ||
      symbols_.statuses) {
    line("// Output arguments.");
    for (const auto &s : symbols_.scalars)
      line(s.second + (s.second.back() == '*' ? "" : " ") + s.first + "{};");
    for (const auto &a : symbols_.arrays)
      line(a.second.first + " " + a.first + "[" + std::to_string(a.second.second) + "]{};");
    if (symbols_.status)
      line("MPI_Status status;");
    if (symbols_.statuses)
      line("MPI_Status statuses[" + std::to_string(symbols_.statuses) + "];");
    line("");
  }
  line("void allocate_buffers() {");
  for (const auto &b : symbols_.buffers)
    line("  buf_" + std::to_string(b.first) + " = allocate_buffer(buf_" + std::to_string(b.first) +
         "_size);");
  // Buffers and addresses share one id space: an address id that is also a
  // buffer id was that buffer's address.
  for (uint64_t p : symbols_.pointers)
    if (symbols_.buffers.count(p))
      line("  pointer_" + std::to_string(p) + " = buf_" + std::to_string(p) + ";");
  for (const std::string &l : address_region_lines(symbols_))
    line("  " + l);
  for (const std::string &l : address_layout())
    line("  " + l);
  line("}");
  line("");

  line("// ---- the trace's grammar: one function per rule used more than once -----------");
  line("");
  for (const auto &f : functions)
    line("void " + f.first + "();");
  line("");
  if (!shapes_.empty())
    for (const std::string &l : shapes_.definitions())
      line(l);
  for (const auto &f : functions) {
    line("void " + f.first + "() {");
    for (const std::string &l : f.second)
      line(l);
    line("}");
    line("");
  }

  line("// Ranks [first, first + count) replay grammar `grammar`.");
  line("struct RankRange {");
  line("  int first, count, grammar;");
  line("};");
  line("const RankRange kRankMap[] = {");
  for (const RankRange &r : m.rank_map)
    line("    {" + std::to_string(r.first) + ", " + std::to_string(r.count) + ", " +
         std::to_string(r.grammar) + "},");
  line("};");
  line("");
  line("int grammar_of(int rank) {");
  line("  for (const RankRange &r : kRankMap)");
  line("    if (rank >= r.first && rank < r.first + r.count)");
  line("      return r.grammar;");
  line("  return -1;");
  line("}");
  line("");
  line("int main(int argc, char **argv) {");
  line("  (void)argc;");
  line("  (void)argv;");
  for (const std::string &l : init_lines)
    line("  " + l);
  line("  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);");
  line("  PMPI_Comm_size(MPI_COMM_WORLD, &world_size);");
  line("  if (world_size != kTraceRanks) {");
  line("    if (world_rank == 0)");
  const std::string ranks = ranks_text(trace_.nranks());
  line("      std::fprintf(stderr, \"proxy: this proxy replays a trace of " + ranks +
       "; run it on " + ranks + ", not %d\\n\", world_size);");
  line("    PMPI_Finalize();");
  line("    return 1;");
  line("  }");
  std::string checks = per_call_ ? "!choose_compute() || !setup_gaps()" : "!choose_compute()";
  if (options_.order)
    checks += " || !order_start(world_rank)";
  line("  if (" + checks + ") {");
  line("    PMPI_Finalize();");
  line("    return 1;");
  line("  }");
  line("  allocate_buffers();");
  for (const std::string &l : address_setup_lines(symbols_))
    line("  " + l);
  for (const std::string &l : files_.setup_lines())
    line("  " + l);
  line("  switch (grammar_of(world_rank)) {");
  for (uint64_t g : used_roots) {
    line("  case " + std::to_string(g) + ":");
    line("    grammar_" + std::to_string(g) + "();");
    line("    break;");
  }
  line("  default:");
  line("    break;");
  line("  }");
  for (const std::string &l : files_.cleanup_lines())
    line("  " + l);
  line("  return 0;");
  line("}");
  ProxySource out;
  if (per_call_ && options_.gaps == Gaps::Exact) {
    const uint64_t fingerprint = source_fingerprint(o);
    char text[64];
    std::snprintf(text, sizeof text, "0x%016llxull", static_cast<unsigned long long>(fingerprint));
    line("");
    line("// Ties the gaps file to this proxy.");
    line(std::string("const unsigned long long kGapsFingerprint = ") + text + ";");
    out.gaps_file = exact_gaps_file(measured, fingerprint);
  }
  out.source = std::move(o);
  return out;
}

} // namespace

ProxySource write_proxy(const Trace &trace, const ProxyOptions &options) {
  Writer w(trace, options);
  return w.run();
}

} // namespace pilgrim::proxygen
