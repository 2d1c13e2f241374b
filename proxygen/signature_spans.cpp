#include "signature_spans.h"

#include <utility>

#include "pilgrim/trace_error.h"

namespace pilgrim::proxygen {

namespace {

// Calls and weight before a terminal's first call and after its last one.
struct Edges {
  double pre_calls = 0, pre_weight = 0, suf_calls = 0, suf_weight = 0;
};

// A rule's expansion, summarized: its calls, its weight, and each terminal's
// edges.
struct Summary {
  double calls = 0, weight = 0;
  std::map<uint64_t, Edges> edges;
};

// Appends `part` repeated `exp` times to `into` (repetition moves neither a
// terminal's first call nor its last one relative to the part's ends).
void append(Summary &into, const Summary &part, uint64_t exp) {
  const double e = static_cast<double>(exp);
  const double calls = part.calls * e, weight = part.weight * e;
  for (auto &entry : into.edges) {
    if (part.edges.count(entry.first))
      continue;
    entry.second.suf_calls += calls;
    entry.second.suf_weight += weight;
  }
  for (const auto &entry : part.edges) {
    // Before the first copy's first call; after the last copy's last call.
    auto it = into.edges.find(entry.first);
    if (it == into.edges.end()) {
      Edges x;
      x.pre_calls = into.calls + entry.second.pre_calls;
      x.pre_weight = into.weight + entry.second.pre_weight;
      x.suf_calls = entry.second.suf_calls;
      x.suf_weight = entry.second.suf_weight;
      into.edges.emplace(entry.first, x);
    } else {
      it->second.suf_calls = entry.second.suf_calls;
      it->second.suf_weight = entry.second.suf_weight;
    }
  }
  into.calls += calls;
  into.weight += weight;
}

Summary terminal_summary(uint64_t t, const std::vector<double> &weight) {
  Summary s;
  s.calls = 1;
  s.weight = t < weight.size() ? weight[t] : 0;
  s.edges.emplace(t, Edges{});
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
    span.calls = top.calls - x.pre_calls - x.suf_calls - 1;
    span.weight = top.weight - x.pre_weight - x.suf_weight - own;
    spans.emplace(t, span);
  }
  return spans;
}

} // namespace pilgrim::proxygen
