#include "pilgrim/grammar_checks.h"

#include <algorithm>
#include <string>

#include "pilgrim/saturating.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

// Iterative DFS from every rule (or only from `only_root` when it is a rule);
// calls `finish(rule)` in post-order (every rule after all rules it
// references). Throws on a cycle.
template <typename Finish>
void post_order(const Grammar &g, Finish finish, uint64_t only_root = UINT64_MAX) {
  const size_t n = g.rules.size();
  std::vector<uint8_t> color(n, 0); // 0 unvisited, 1 on the stack, 2 done
  struct Frame {
    size_t rule;
    size_t pos;
  };
  std::vector<Frame> stack;
  const bool one = only_root < n;
  for (size_t root = one ? static_cast<size_t>(only_root) : 0; root < (one ? only_root + 1 : n);
       ++root) {
    if (color[root])
      continue;
    color[root] = 1;
    stack.push_back({root, 0});
    while (!stack.empty()) {
      Frame &f = stack.back();
      const auto &body = g.rules[f.rule];
      if (f.pos == body.size()) {
        color[f.rule] = 2;
        finish(f.rule);
        stack.pop_back();
        continue;
      }
      const GrammarSymbol &s = body[f.pos++];
      if (is_terminal(s))
        continue;
      const uint64_t child = rule_index(s);
      if (child >= n)
        continue; // invalid reference (validate_grammar reports it)
      if (color[child] == 1)
        throw TraceError("grammar rule " + std::to_string(child) + " expands to itself");
      if (color[child] == 0) {
        color[child] = 1;
        stack.push_back({static_cast<size_t>(child), 0});
      }
    }
  }
}

} // namespace

void validate_grammar(const Grammar &g, size_t nterminals) {
  const size_t n = g.rules.size();
  for (size_t r = 0; r < n; ++r) {
    for (size_t i = 0; i < g.rules[r].size(); ++i) {
      const GrammarSymbol &s = g.rules[r][i];
      const std::string where =
          "grammar rule " + std::to_string(r) + " symbol " + std::to_string(i);
      if (s.exp == 0)
        throw TraceError(where + ": repetition count 0");
      if (is_terminal(s)) {
        if (static_cast<uint64_t>(s.value) >= nterminals)
          throw TraceError(where + ": terminal " + std::to_string(s.value) + " beyond the " +
                           std::to_string(nterminals) + " CST entries");
      } else if (rule_index(s) >= n) {
        throw TraceError(where + ": rule " + std::to_string(rule_index(s)) + " beyond the " +
                         std::to_string(n) + " rules");
      }
    }
  }
  post_order(g, [](size_t) {});
}

std::vector<uint64_t> rule_lengths(const Grammar &g, uint64_t only_root) {
  std::vector<uint64_t> len(g.rules.size(), 0);
  post_order(
      g,
      [&](size_t r) {
        uint64_t total = 0;
        for (const GrammarSymbol &s : g.rules[r]) {
          const uint64_t one = is_terminal(s)               ? 1
                               : rule_index(s) < len.size() ? len[rule_index(s)]
                                                            : 0;
          total = sat_add(total, sat_mul(one, s.exp));
        }
        len[r] = total;
      },
      only_root);
  return len;
}

uint64_t expanded_length(const Grammar &g, uint64_t root) {
  if (root >= g.rules.size())
    return 0;
  return rule_lengths(g, root)[root];
}

std::vector<std::pair<uint64_t, uint64_t>> terminal_counts(const Grammar &g, uint64_t root) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (root >= g.rules.size())
    return out;
  std::vector<size_t> order; // children before parents
  post_order(
      g, [&](size_t r) { order.push_back(r); }, root);
  std::vector<uint64_t> times(g.rules.size(), 0);
  times[root] = 1;
  std::vector<std::pair<uint64_t, uint64_t>> raw;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const uint64_t m = times[*it];
    for (const GrammarSymbol &s : g.rules[*it]) {
      const uint64_t n = sat_mul(m, s.exp);
      if (is_terminal(s))
        raw.emplace_back(static_cast<uint64_t>(s.value), n);
      else if (rule_index(s) < times.size())
        times[rule_index(s)] = sat_add(times[rule_index(s)], n);
    }
  }
  // Terminals are CST indices, dense in a valid grammar: count them in an
  // array (O(symbols + terminals)); sort only when they are sparse.
  uint64_t max_terminal = 0;
  for (const auto &p : raw)
    max_terminal = std::max(max_terminal, p.first);
  if (!raw.empty() && max_terminal < 4 * raw.size() + 1024) {
    std::vector<uint64_t> count(max_terminal + 1, 0);
    std::vector<bool> seen(max_terminal + 1, false);
    for (const auto &p : raw) {
      count[p.first] = sat_add(count[p.first], p.second);
      seen[p.first] = true;
    }
    for (uint64_t t = 0; t <= max_terminal; ++t)
      if (seen[t])
        out.emplace_back(t, count[t]);
    return out;
  }
  std::sort(raw.begin(), raw.end());
  for (const auto &p : raw) {
    if (!out.empty() && out.back().first == p.first)
      out.back().second = sat_add(out.back().second, p.second);
    else
      out.push_back(p);
  }
  return out;
}

} // namespace pilgrim
