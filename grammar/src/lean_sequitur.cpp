// LeanSequitur: the published Sequitur (Nevill-Manning and Witten,
// "Identifying hierarchical structure in sequences", 1997, and its reference
// implementation), with indices into flat arrays instead of pointers.
#include "pilgrim/lean_sequitur.h"

#include "pilgrim/varint.h"

namespace pilgrim {

LeanSequitur::LeanSequitur() {
  nodes_.reserve(4096);
  table_.assign(4096, Slot{kNil, 0});
  mask_ = table_.size() - 1;
  new_rule(); // rule 0, the start rule
}

__attribute__((always_inline)) inline uint32_t LeanSequitur::new_node(int64_t value) {
  if (free_node_ != kNil) { // the last node freed
    const uint32_t n = free_node_;
    free_node_ = nodes_[n].next;
    nodes_[n] = Node{value, kNil, kNil};
    return n;
  }
  nodes_.push_back(Node{value, kNil, kNil});
  return static_cast<uint32_t>(nodes_.size() - 1);
}

uint32_t LeanSequitur::new_rule() {
  uint32_t r = 0;
  if (!free_rules_.empty()) {
    r = free_rules_.back();
    free_rules_.pop_back();
  } else {
    r = static_cast<uint32_t>(rules_.size());
    rules_.push_back(Rule{kNil, 0});
  }
  const uint32_t g = new_node(kGuard + r);
  nodes_[g].prev = nodes_[g].next = g;
  rules_[r] = Rule{g, 0};
  return r;
}

__attribute__((always_inline)) inline void LeanSequitur::free_node(uint32_t n) {
  nodes_[n].next = free_node_;
  free_node_ = n;
}

__attribute__((always_inline)) inline uint32_t LeanSequitur::hash_of(int64_t a, int64_t b) {
  // Two multiplications: the second's high half mixes every bit of the
  // first's sum. An xor-shift between them cost more than the longer
  // probes it saved (callgrind, cfg:0.1 on a Comm_rank trace and on the
  // synthetic stencil).
  const uint64_t x = static_cast<uint64_t>(a) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(b);
  return static_cast<uint32_t>(x * 0xD6E8FEB86659FD93ull >> 32);
}

// The slot holding digram (a, b), or the empty slot where it would go.
__attribute__((always_inline)) inline size_t LeanSequitur::slot_of(int64_t a, int64_t b,
                                                                   uint32_t h) const {
  for (size_t s = h & mask_;; s = (s + 1) & mask_) {
    const Slot &e = table_[s];
    if (e.node == kNil)
      return s;
    if (e.hash == h && nodes_[e.node].value == a && nodes_[nodes_[e.node].next].value == b)
      return s;
  }
}

__attribute__((always_inline)) inline uint32_t LeanSequitur::find(uint32_t n, size_t &slot,
                                                                  uint32_t &h) const {
  const int64_t a = nodes_[n].value, b = nodes_[nodes_[n].next].value;
  h = hash_of(a, b);
  slot = slot_of(a, b, h);
  return table_[slot].node;
}

// Indexes the digram starting at n, replacing the node indexed for it.
__attribute__((always_inline)) inline void LeanSequitur::set(uint32_t n) {
  if (guard(n) || guard(nodes_[n].next))
    return;
  size_t s = 0;
  uint32_t h = 0;
  if (find(n, s, h) == kNil)
    ++table_count_;
  table_[s] = Slot{n, h};
  if (table_count_ > mask_ / 2)
    grow();
}

// Linear probing's deletion: later entries of the run move back.
void LeanSequitur::erase_slot(size_t s) {
  const size_t mask = mask_;
  size_t i = s;
  for (;;) {
    table_[i].node = kNil;
    size_t j = i;
    for (;;) {
      j = (j + 1) & mask;
      if (table_[j].node == kNil) {
        --table_count_;
        return;
      }
      const size_t k = table_[j].hash & mask; // where the entry would like to be
      if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
        continue;
      table_[i] = table_[j];
      i = j;
      break;
    }
  }
}

void LeanSequitur::grow() {
  std::vector<Slot> old(table_.size() * 2, Slot{kNil, 0});
  old.swap(table_);
  const size_t mask = mask_ = table_.size() - 1;
  for (const Slot &e : old) {
    if (e.node == kNil)
      continue;
    size_t s = e.hash & mask;
    while (table_[s].node != kNil)
      s = (s + 1) & mask;
    table_[s] = e;
  }
}

__attribute__((always_inline)) inline void LeanSequitur::delete_digram(uint32_t n) {
  if (guard(n) || guard(nodes_[n].next))
    return;
  size_t s = 0;
  uint32_t h = 0;
  if (find(n, s, h) == n)
    erase_slot(s);
}

// Links right after left; when left was linked, its old digram goes, and
// the overlapping digrams of a run "a a a" are indexed again (the reference
// implementation's join).
__attribute__((always_inline)) inline void LeanSequitur::join(uint32_t left, uint32_t right) {
  if (nodes_[left].next != kNil) {
    delete_digram(left);
    const uint32_t rp = nodes_[right].prev, rn = nodes_[right].next;
    if (rp != kNil && rn != kNil && nodes_[right].value == nodes_[rp].value &&
        nodes_[right].value == nodes_[rn].value)
      set(right);
    const uint32_t lp = nodes_[left].prev, ln = nodes_[left].next;
    if (lp != kNil && ln != kNil && nodes_[left].value == nodes_[ln].value &&
        nodes_[left].value == nodes_[lp].value)
      set(lp);
  }
  nodes_[left].next = right;
  nodes_[right].prev = left;
}

__attribute__((always_inline)) inline void LeanSequitur::insert_after(uint32_t at, uint32_t n) {
  join(n, nodes_[at].next);
  join(at, n);
}

// Digram uniqueness for the digram starting at n: true when it occurs
// elsewhere (then replaced by a rule, unless the two overlap).
// Inlined into push and substitute: most checks find a new digram, and
// an out-of-line call's saved registers cost as much as the lookup.
__attribute__((always_inline)) inline bool LeanSequitur::check(uint32_t n) {
  if (guard(n) || guard(nodes_[n].next))
    return false;
  size_t s = 0;
  uint32_t h = 0;
  const uint32_t x = find(n, s, h);
  if (x == kNil) {
    table_[s] = Slot{n, h};
    if (++table_count_ > mask_ / 2)
      grow();
    return false;
  }
  if (x != n && nodes_[x].next != n)
    match(n, x);
  return x != n;
}

void LeanSequitur::match(uint32_t ss, uint32_t m) {
  uint32_t r = 0;
  if (guard(nodes_[m].prev) && guard(nodes_[nodes_[m].next].next)) {
    // m is a whole rule's body: reuse the rule.
    r = static_cast<uint32_t>(nodes_[nodes_[m].prev].value - kGuard);
    // check() found m, not ss, indexed for this digram: ss's is not.
    substitute(ss, r, false);
  } else {
    r = new_rule();
    for (const int64_t v : {nodes_[ss].value, nodes_[nodes_[ss].next].value}) {
      const uint32_t c = new_node(v);
      if (v < 0)
        ++rules_[rule_of(v)].uses;
      insert_after(last(r), c);
    }
    substitute(m, r, true);
    substitute(ss, r, true);
    set(first(r));
  }
  // Rule utility: a rule used once is inlined.
  const uint32_t f = first(r);
  if (nodes_[f].value < 0 && rules_[rule_of(nodes_[f].value)].uses == 1)
    expand(f);
}

// Replaces the digram starting at n by a reference to rule r: what the
// reference implementation's remove(a), remove(b), insert_after(q, s) do to
// the links and the digram table, step by step, less the three deletions of
// q's digram that find nothing (q's own entry goes with (q, a), the first
// step, and nothing indexes q again before s is linked). Each step's
// condition is the one of join() at that point. `indexed`: false when n is
// known not to be indexed for its digram (its deletion would find nothing).
__attribute__((always_inline)) inline void LeanSequitur::substitute(uint32_t n, uint32_t r,
                                                                    bool indexed) {
  const uint32_t a = n, b = nodes_[a].next, q = nodes_[a].prev, z = nodes_[b].next;
  const int64_t va = nodes_[a].value, vb = nodes_[b].value, vq = nodes_[q].value;
  const int64_t vz = nodes_[z].value;
  const uint32_t lp = nodes_[q].prev;
  const int64_t vlp = nodes_[lp].value;
  // remove(a): join(q, b), then a's digram (a, b).
  delete_digram(q);
  if (vb == va && vb == vz)
    set(b);
  if (vq == va && vq == vlp)
    set(lp);
  if (indexed)
    delete_digram(a);
  if (va < 0)
    --rules_[rule_of(va)].uses;
  free_node(a);
  // remove(b): join(q, z), then b's digram (b, z).
  if (vz == vb && vz == nodes_[nodes_[z].next].value)
    set(z);
  if (vq == vb && vq == vlp)
    set(lp);
  nodes_[b].next = z; // delete_digram(b) reads (b, z)
  delete_digram(b);
  if (vb < 0)
    --rules_[rule_of(vb)].uses;
  free_node(b);
  // insert_after(q, s): join(s, z) links only (s is new), join(q, s).
  const uint32_t s = new_node(-static_cast<int64_t>(r) - 1);
  ++rules_[r].uses;
  if (vq == vz && vq == vlp)
    set(lp);
  nodes_[s].next = z;
  nodes_[z].prev = s;
  nodes_[q].next = s;
  nodes_[s].prev = q;
  if (!check(q))
    check(s);
}

// Replaces n, the only reference to its rule, by the rule's body.
void LeanSequitur::expand(uint32_t n) {
  const uint32_t left = nodes_[n].prev, right = nodes_[n].next;
  const uint32_t r = rule_of(nodes_[n].value);
  const uint32_t f = first(r), l = last(r), g = rules_[r].guard;
  delete_digram(left);
  delete_digram(n);
  join(left, f);
  join(l, right);
  set(l);
  free_node(n);
  free_node(g);
  rules_[r] = Rule{kNil, 0};
  free_rules_.push_back(r);
}

void LeanSequitur::push(uint32_t terminal, uint64_t run) {
  const uint32_t n =
      new_node(static_cast<int64_t>(terminal) + static_cast<int64_t>((run - 1) << 32));
  // insert_after(last(0), n) reduced to its links: n is new, and the
  // digram it ends, (last, guard), is never indexed, nor is a run of
  // three closed by a guard.
  const uint32_t g = rules_[0].guard, l = nodes_[g].prev;
  nodes_[n].prev = l;
  nodes_[n].next = g;
  nodes_[l].next = n;
  nodes_[g].prev = n;
  check(l);
}

std::vector<uint32_t> LeanSequitur::rule_order(std::vector<int64_t> &number) const {
  number.assign(rules_.size(), -1);
  std::vector<uint32_t> order{0};
  number[0] = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t g = rules_[order[k]].guard;
    for (uint32_t n = nodes_[g].next; n != g; n = nodes_[n].next) {
      const int64_t v = nodes_[n].value;
      if (v < 0 && number[rule_of(v)] < 0) {
        number[rule_of(v)] = static_cast<int64_t>(order.size());
        order.push_back(rule_of(v));
      }
    }
  }
  return order;
}

void LeanSequitur::body_of(uint32_t rule, const std::vector<int64_t> &number,
                           std::vector<GrammarSymbol> &body) const {
  body.clear();
  auto add = [&](GrammarSymbol x) {
    if (!body.empty() && body.back().value == x.value)
      body.back().exp += x.exp;
    else
      body.push_back(x);
  };
  const uint32_t g = rules_[rule].guard;
  for (uint32_t n = nodes_[g].next; n != g; n = nodes_[n].next) {
    const int64_t v = nodes_[n].value;
    add(v >= 0 ? symbol_of(v) : GrammarSymbol{-number[rule_of(v)] - 1, 1});
  }
  if (rule == 0 && run_length_ > 0)
    add(GrammarSymbol{run_terminal_, run_length_});
}

std::vector<std::vector<GrammarSymbol>> LeanSequitur::rules() const {
  std::vector<int64_t> number;
  const std::vector<uint32_t> order = rule_order(number);
  std::vector<std::vector<GrammarSymbol>> out(order.size());
  for (size_t k = 0; k < order.size(); ++k)
    body_of(order[k], number, out[k]);
  return out;
}

void LeanSequitur::put(ByteWriter &w) const {
  std::vector<int64_t> number;
  const std::vector<uint32_t> order = rule_order(number);
  std::vector<GrammarSymbol> body;
  // Each rule's varints gathered first, then appended at once (one append
  // per varint cost a tenth of the encoder).
  std::vector<uint8_t> scratch;
  w.varint(order.size());
  for (const uint32_t r : order) {
    body_of(r, number, body);
    scratch.resize((1 + 2 * body.size()) * kMaxVarintBytes);
    uint8_t *p = scratch.data();
    put_varint(p, body.size());
    for (const GrammarSymbol &x : body) {
      put_svarint(p, x.value);
      put_varint(p, x.exp);
    }
    w.bytes(std::string_view(reinterpret_cast<const char *>(scratch.data()),
                             static_cast<size_t>(p - scratch.data())));
  }
}

} // namespace pilgrim
