#include "rule_sharing.h"

#include <unordered_map>

#include "pilgrim/sequitur.h"

namespace pilgrim {

namespace {

struct PairHash {
  size_t operator()(const std::pair<int64_t, uint64_t> &p) const {
    return std::hash<int64_t>()(p.first) * 31 + std::hash<uint64_t>()(p.second);
  }
};

uint64_t sat_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

// Drops rules no root reaches and rules whose body is one rule reference
// with exponent 1 (their users point at that rule instead); renumbers.
void compact(Grammar &pool, std::vector<uint64_t> &roots) {
  const size_t n = pool.rules.size();
  // Alias of a unit rule: follow chains (they are acyclic: the pool is a DAG).
  std::vector<uint64_t> target(n);
  for (size_t r = 0; r < n; ++r)
    target[r] = r;
  auto resolve = [&](uint64_t r) {
    uint64_t t = r;
    for (size_t steps = 0; steps <= n; ++steps) {
      const auto &body = pool.rules[t];
      if (body.size() != 1 || is_terminal(body[0]) || body[0].exp != 1)
        break;
      t = rule_index(body[0]);
    }
    return t;
  };
  for (size_t r = 0; r < n; ++r)
    target[r] = resolve(r);
  for (uint64_t &root : roots)
    root = target[root];
  std::vector<int64_t> id(n, -1);
  std::vector<uint64_t> order;
  for (uint64_t root : roots)
    if (id[root] < 0) {
      id[root] = static_cast<int64_t>(order.size());
      order.push_back(root);
    }
  for (size_t k = 0; k < order.size(); ++k)
    for (GrammarSymbol &s : pool.rules[order[k]])
      if (!is_terminal(s)) {
        const uint64_t t = target[rule_index(s)];
        if (id[t] < 0) {
          id[t] = static_cast<int64_t>(order.size());
          order.push_back(t);
        }
        s = GrammarSymbol::nonterminal(t, s.exp);
      }
  Grammar out;
  out.rules.reserve(order.size());
  for (uint64_t r : order) {
    std::vector<GrammarSymbol> body = std::move(pool.rules[r]);
    for (GrammarSymbol &s : body)
      if (!is_terminal(s))
        s = GrammarSymbol::nonterminal(static_cast<uint64_t>(id[rule_index(s)]), s.exp);
    out.rules.push_back(std::move(body));
  }
  for (uint64_t &root : roots)
    root = static_cast<uint64_t>(id[root]);
  pool = std::move(out);
}

} // namespace

MergedTrace share_rules(std::vector<CstEntry> cst, std::vector<Grammar> grammars) {
  MergedTrace m;
  m.cst = std::move(cst);
  // Every original rule gets a global number; each (value, exp) symbol of a
  // body, with rule references made global, becomes one Sequitur terminal.
  std::vector<uint64_t> base(grammars.size());
  uint64_t nrules = 0;
  for (size_t g = 0; g < grammars.size(); ++g) {
    base[g] = nrules;
    nrules += grammars[g].rules.size();
  }
  std::unordered_map<std::pair<int64_t, uint64_t>, uint32_t, PairHash> pair_id;
  std::vector<std::pair<int64_t, uint64_t>> pairs;
  std::vector<uint32_t> input;
  std::vector<size_t> body_end; // input position after each original rule's body
  for (size_t g = 0; g < grammars.size(); ++g)
    for (const auto &body : grammars[g].rules) {
      for (const GrammarSymbol &s : body) {
        const int64_t v = is_terminal(s)
                              ? s.value
                              : rule_symbol_value(base[g] + rule_index(s)); // global rule
        auto it = pair_id.emplace(std::make_pair(v, s.exp), static_cast<uint32_t>(pairs.size()));
        if (it.second)
          pairs.emplace_back(v, s.exp);
        input.push_back(it.first->second);
      }
      body_end.push_back(input.size());
    }
  const uint32_t npairs = static_cast<uint32_t>(pairs.size());
  Sequitur seq;
  size_t pos = 0;
  for (size_t r = 0; r < body_end.size(); ++r) {
    for (; pos < body_end[r]; ++pos)
      seq.append(input[pos]);
    seq.append(npairs + static_cast<uint32_t>(r)); // the separator closing body r
  }
  const std::vector<std::vector<GrammarSymbol>> out = seq.rules();
  // Pool: Sequitur's rules 1.. first, then one rule per original rule.
  const uint64_t nshared = out.empty() ? 0 : out.size() - 1;
  auto convert = [&](const GrammarSymbol &s) {
    if (!is_terminal(s))
      return GrammarSymbol::nonterminal(rule_index(s) - 1, s.exp);
    const auto &p = pairs[static_cast<size_t>(s.value)];
    if (p.first >= 0)
      return GrammarSymbol{p.first, sat_mul(p.second, s.exp)};
    return GrammarSymbol::nonterminal(nshared + rule_index(GrammarSymbol{p.first, 1}),
                                      sat_mul(p.second, s.exp));
  };
  m.rules.rules.resize(nshared + nrules);
  for (uint64_t k = 1; k < out.size(); ++k)
    for (const GrammarSymbol &s : out[k])
      m.rules.rules[k - 1].push_back(convert(s));
  uint64_t current = 0;
  if (!out.empty())
    for (const GrammarSymbol &s : out[0]) {
      if (is_terminal(s) && static_cast<uint64_t>(s.value) >= npairs) {
        ++current; // a separator: the next original rule starts
        continue;
      }
      m.rules.rules[nshared + current].push_back(convert(s));
    }
  for (size_t g = 0; g < grammars.size(); ++g)
    m.roots.push_back(nshared + base[g]);
  compact(m.rules, m.roots);
  return m;
}

} // namespace pilgrim
