#include "grammar_listing.h"

#include <algorithm>
#include <string>
#include <vector>

#include "call_listing.h"
#include "pilgrim/context_walk.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/grammar_walker.h"

namespace pilgrim::dump {

namespace {

// Each CST entry's text as the rank's uses of it show it: resolved where
// every use resolves the same way, else with only MPI_COMM_WORLD and
// MPI_COMM_SELF resolved (ids reused with another meaning: "self+1").
std::vector<std::string> entry_texts(const Trace &trace, const std::vector<DecodedCall> &calls,
                                     uint32_t rank) {
  const RankView v = trace.rank(rank);
  CreationTracker tracker = CreationTracker::for_rank(trace, rank, calls);
  std::vector<std::string> texts(calls.size());
  enum : uint8_t { Unused, Same, Differs };
  std::vector<uint8_t> state(calls.size(), Unused);
  std::vector<uint64_t> made_in(calls.size(), 0);
  walk_in_context(
      *v.rules, v.root, calls, tracker, [&](uint64_t t, uint64_t, const CallContext &ctx) {
        if (state[t] == Differs || (state[t] == Same && made_in[t] == tracker.version()))
          return;
        std::string s = call_text(resolve_call(calls[t], ctx));
        if (state[t] == Unused) {
          texts[t] = std::move(s);
          state[t] = Same;
        } else if (s != texts[t]) {
          texts[t] = call_text(resolve_call(calls[t], CallContext{rank, trace.header.version}));
          state[t] = Differs;
        }
        made_in[t] = tracker.version();
      });
  return texts;
}

} // namespace

void print_merge_summary(TextOutput &out, const Trace &trace) {
  const MergedTrace &m = trace.merged;
  out << "# merged: " << std::to_string(m.cst.size()) << " CST entries, "
      << std::to_string(m.rules.rules.size()) << " rules, " << std::to_string(m.roots.size())
      << " distinct grammars\n";
  out << "# rank map:";
  for (const RankRange &x : m.rank_map) {
    out << ' ' << std::to_string(x.first);
    if (x.count > 1)
      out << '-' << std::to_string(x.first + x.count - 1);
    out << ":g" << std::to_string(x.grammar);
  }
  out << '\n';
}

void print_grammar(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                   uint32_t rank) {
  const RankView v = trace.rank(rank);
  const auto &pool = v.rules->rules;
  const std::string r = std::to_string(rank);
  const auto counts = terminal_counts(*v.rules, v.root);
  const std::vector<std::string> texts = entry_texts(trace, calls, rank);
  out << "# rank " << r << ": grammar g" << std::to_string(v.grammar) << ", root R"
      << std::to_string(v.root) << '\n';
  out << "# rank " << r << " CST: " << std::to_string(counts.size()) << " entries\n";
  for (const auto &tc : counts)
    out << "t" << std::to_string(tc.first) << " count=" << std::to_string(tc.second) << ": "
        << texts[tc.first] << '\n';
  // The rules the root reaches: the root first, then in pool order.
  std::vector<uint64_t> rules{v.root};
  std::vector<bool> seen(pool.size(), false);
  seen[v.root] = true;
  for (size_t k = 0; k < rules.size(); ++k)
    for (const GrammarSymbol &s : pool[rules[k]])
      if (!is_terminal(s) && rule_index(s) < pool.size() && !seen[rule_index(s)]) {
        seen[rule_index(s)] = true;
        rules.push_back(rule_index(s));
      }
  std::sort(rules.begin() + 1, rules.end());
  out << "# rank " << r << " grammar: " << std::to_string(rules.size()) << " rules, "
      << std::to_string(expanded_length(*v.rules, v.root)) << " calls\n";
  for (uint64_t k : rules) {
    out << "R" << std::to_string(k) << " ->";
    for (const GrammarSymbol &s : pool[k]) {
      out << ' '
          << (is_terminal(s) ? "t" + std::to_string(s.value) : "R" + std::to_string(rule_index(s)));
      if (s.exp != 1)
        out << '^' << std::to_string(s.exp);
    }
    out << '\n';
  }
}

} // namespace pilgrim::dump
