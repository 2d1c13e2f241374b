#include "signature_spans.h"

#include <utility>

#include "pilgrim/trace_error.h"

namespace pilgrim::proxygen {

namespace {

// Where a terminal's calls lie in a rule's expansion: the calls and weight
// before its first call, and up to the end of its last call. Positions, not
// distances to the end, so that appending to a summary touches only the
// terminals of the part appended (the suffix after a terminal's last call is
// the summary's total less `end`).
struct Edges {
  double pre_calls = 0, pre_weight = 0, end_calls = 0, end_weight = 0;
};

// A rule's expansion, summarized: its calls, its weight, and each terminal's
// edges.
struct Summary {
  double calls = 0, weight = 0;
  std::map<uint64_t, Edges> edges;
};

// Appends `part` repeated `exp` times to `into` (repetition moves neither a
// terminal's first call nor its last one relative to the part's ends). Costs
// the part's terminals, not the summary's: a rule of n distinct calls is
// summarized in O(n log n).
void append(Summary &into, const Summary &part, uint64_t exp) {
  const double e = static_cast<double>(exp);
  // Where the last copy of the part starts.
  const double last_calls = into.calls + part.calls * (e - 1);
  const double last_weight = into.weight + part.weight * (e - 1);
  for (const auto &entry : part.edges) {
    const Edges &x = entry.second;
    auto it = into.edges.find(entry.first);
    if (it == into.edges.end()) {
      Edges y;
      y.pre_calls = into.calls + x.pre_calls;
      y.pre_weight = into.weight + x.pre_weight;
      it = into.edges.emplace(entry.first, y).first;
    }
    it->second.end_calls = last_calls + x.end_calls;
    it->second.end_weight = last_weight + x.end_weight;
  }
  into.calls += part.calls * e;
  into.weight += part.weight * e;
}

Summary terminal_summary(uint64_t t, const std::vector<double> &weight) {
  Summary s;
  s.calls = 1;
  s.weight = t < weight.size() ? weight[t] : 0;
  Edges x;
  x.end_calls = 1;
  x.end_weight = s.weight;
  s.edges.emplace(t, x);
  return s;
}

} // namespace

std::map<uint64_t, SignatureSpan> signature_spans(const Grammar &rules, uint64_t root,
                                                  const std::vector<double> &weight) {
  const size_t n = rules.rules.size();
  std::vector<Summary> done(n);
  std::vector<char> state(n, 0); // 0 new, 1 on the stack, 2 summarized
  std::vector<uint64_t> stack;
  if (root < n)
    stack.push_back(root);
  // Post-order without recursion: a rule is summarized once its rules are.
  while (!stack.empty()) {
    const uint64_t r = stack.back();
    if (state[r] == 2) {
      stack.pop_back();
      continue;
    }
    bool ready = true;
    for (const GrammarSymbol &s : rules.rules[r]) {
      if (!s.is_rule() || s.rule() >= n || state[s.rule()] == 2)
        continue;
      if (state[s.rule()] == 1)
        throw TraceError("the grammar has a cycle through rule " + std::to_string(s.rule()));
      ready = false;
      stack.push_back(s.rule());
    }
    if (!ready) {
      state[r] = 1;
      continue;
    }
    Summary sum;
    for (const GrammarSymbol &s : rules.rules[r]) {
      if (!s.is_rule())
        append(sum, terminal_summary(static_cast<uint64_t>(s.value), weight), s.exp);
      else if (s.rule() < n)
        append(sum, done[s.rule()], s.exp);
    }
    done[r] = std::move(sum);
    state[r] = 2;
    stack.pop_back();
  }
  std::map<uint64_t, SignatureSpan> spans;
  if (root >= n)
    return spans;
  const Summary &top = done[root];
  for (const auto &entry : top.edges) {
    const uint64_t t = entry.first;
    const Edges &x = entry.second;
    const double own = t < weight.size() ? weight[t] : 0;
    SignatureSpan span;
    span.calls = x.end_calls - x.pre_calls - 1;
    span.weight = x.end_weight - x.pre_weight - own;
    spans.emplace(t, span);
  }
  return spans;
}

} // namespace pilgrim::proxygen
