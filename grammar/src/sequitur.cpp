// Online Sequitur with repetition counts. See sequitur.h for the invariants.
//
// How the pieces fit:
//  - Every rule body is a circular list through the rule's guard node. Nodes
//    and rules live in index-addressed pools with free lists.
//  - The digram index maps a digram key ((v1, e1), (v2, e2)) to the first node
//    of its one indexed occurrence. The key is read from the nodes themselves,
//    so an entry must be removed (unindex) *before* either of its two nodes
//    changes value, exponent or successor, and the changed digram re-checked
//    afterwards. Moving a run of nodes elsewhere (inlining a rule) keeps the
//    entries of the digrams inside the run valid.
//  - A change never recurses into further changes: it queues what it may have
//    broken (a digram to check, a rule whose utility dropped, a rule whose body
//    shrank to one symbol) and run() drains the queues until nothing is left.
//    Nodes and rules freed meanwhile are recycled only once the queues are
//    empty, so a queued index never names a reused slot.
//  - Adjacent equal symbols are merged eagerly (coalesce) whenever two symbols
//    become neighbours, so I1 holds whenever a digram is checked and two
//    occurrences of a digram can never overlap.
//  - Each rule keeps an intrusive list of the nodes that reference it, so the
//    single remaining reference of an underused rule (to inline it) and all
//    references of a trivial rule (to rename them) are found in O(1) each.
#include "pilgrim/sequitur.h"

#include <cassert>
#include <limits>
#include <stdexcept>
#include <utility>

namespace pilgrim {
namespace {

constexpr int64_t kGuard = std::numeric_limits<int64_t>::min();
constexpr size_t kNotFound = std::numeric_limits<size_t>::max();
constexpr size_t kInitialTableSize = 64; // power of two

int64_t rule_value(uint32_t rule) { return -static_cast<int64_t>(rule) - 1; }
uint32_t rule_of(int64_t value) { return static_cast<uint32_t>(-(value + 1)); }

// splitmix64's finalizer: a cheap, well-mixing 64-bit permutation.
uint64_t mix64(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return x;
}

// Saturating arithmetic for expansion lengths.
uint64_t sat_mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > std::numeric_limits<uint64_t>::max() / a)
    return std::numeric_limits<uint64_t>::max();
  return a * b;
}
uint64_t sat_add(uint64_t a, uint64_t b) {
  return b > std::numeric_limits<uint64_t>::max() - a ? std::numeric_limits<uint64_t>::max()
                                                      : a + b;
}

} // namespace

// ---------------------------------------------------------------------------
// Pools

Sequitur::Sequitur() {
  table_.assign(kInitialTableSize, Slot{kNil, 0});
  uint32_t start = alloc_rule();
  assert(start == 0);
  (void)start;
}

uint32_t Sequitur::alloc_node() {
  if (!free_nodes_.empty()) {
    uint32_t n = free_nodes_.back();
    free_nodes_.pop_back();
    return n;
  }
  if (nodes_.size() >= kNil)
    throw std::length_error("pilgrim::Sequitur: too many grammar symbols");
  nodes_.push_back(Node{0, 0, kNil, kNil, kNil, kNil});
  return static_cast<uint32_t>(nodes_.size() - 1);
}

uint32_t Sequitur::alloc_rule() {
  uint32_t r;
  if (!free_rules_.empty()) {
    r = free_rules_.back();
    free_rules_.pop_back();
  } else {
    if (rules_.size() >= kNil)
      throw std::length_error("pilgrim::Sequitur: too many grammar rules");
    r = static_cast<uint32_t>(rules_.size());
    uint32_t g = alloc_node();
    nodes_[g] = Node{kGuard, 1, g, g, kNil, r};
    rules_.push_back(Rule{g, kNil, 0, false, 0});
  }
  Rule &rule = rules_[r];
  rule.live = true;
  rule.ref_head = kNil;
  rule.refs = 0;
  rule.uses = 0;
  ++rule_count_;
  return r;
}

void Sequitur::release_node(uint32_t n) {
  nodes_[n].exp = 0;
  pending_nodes_.push_back(n);
}

void Sequitur::release_rule(uint32_t r) {
  assert(rules_[r].refs == 0 && rules_[r].uses == 0);
  rules_[r].live = false;
  --rule_count_;
  pending_rules_.push_back(r);
}

// ---------------------------------------------------------------------------
// Symbols and links

bool Sequitur::is_guard(uint32_t n) const { return nodes_[n].value == kGuard; }

uint32_t Sequitur::owner_of_guard(uint32_t g) const { return nodes_[g].ref_next; }

uint32_t Sequitur::new_symbol(int64_t value, uint64_t exp) {
  uint32_t n = alloc_node();
  nodes_[n] = Node{value, exp, kNil, kNil, kNil, kNil};
  add_ref(n);
  ++symbol_count_;
  return n;
}

// Unlinks and frees a symbol; its neighbours become adjacent. The caller has
// already unindexed the digrams that involve it.
void Sequitur::delete_symbol(uint32_t n) {
  drop_ref(n);
  uint32_t p = nodes_[n].prev;
  uint32_t q = nodes_[n].next;
  nodes_[p].next = q;
  nodes_[q].prev = p;
  release_node(n);
  --symbol_count_;
}

void Sequitur::link_after(uint32_t p, uint32_t n) {
  uint32_t q = nodes_[p].next;
  nodes_[n].prev = p;
  nodes_[n].next = q;
  nodes_[p].next = n;
  nodes_[q].prev = n;
}

void Sequitur::add_ref(uint32_t n) {
  Node &node = nodes_[n];
  if (node.value >= 0)
    return;
  Rule &rule = rules_[rule_of(node.value)];
  node.ref_prev = kNil;
  node.ref_next = rule.ref_head;
  if (rule.ref_head != kNil)
    nodes_[rule.ref_head].ref_prev = n;
  rule.ref_head = n;
  ++rule.refs;
  rule.uses += node.exp;
}

void Sequitur::drop_ref(uint32_t n) {
  Node &node = nodes_[n];
  if (node.value >= 0)
    return;
  uint32_t r = rule_of(node.value);
  Rule &rule = rules_[r];
  if (node.ref_prev != kNil)
    nodes_[node.ref_prev].ref_next = node.ref_next;
  else
    rule.ref_head = node.ref_next;
  if (node.ref_next != kNil)
    nodes_[node.ref_next].ref_prev = node.ref_prev;
  node.ref_prev = node.ref_next = kNil;
  --rule.refs;
  rule.uses -= node.exp;
  if (rule.uses < 2)
    utility_work_.push_back(r);
}

void Sequitur::set_exp(uint32_t n, uint64_t exp) {
  Node &node = nodes_[n];
  if (node.value < 0) {
    Rule &rule = rules_[rule_of(node.value)];
    rule.uses = rule.uses - node.exp + exp;
  }
  node.exp = exp;
}

// True when n and its successor are the entire body of a rule.
bool Sequitur::is_whole_body(uint32_t n) const {
  uint32_t q = nodes_[n].next;
  return is_guard(nodes_[n].prev) && !is_guard(q) && is_guard(nodes_[q].next);
}

void Sequitur::push_check(uint32_t n) {
  if (!is_guard(n))
    digram_work_.push_back(n);
}

// ---------------------------------------------------------------------------
// Digram index: open addressing, linear probing, backward-shift deletion.

uint32_t Sequitur::digram_hash(uint32_t n) const {
  const Node &a = nodes_[n];
  const Node &b = nodes_[a.next];
  uint64_t h = mix64(static_cast<uint64_t>(a.value) ^ (a.exp << 32 | a.exp >> 32));
  h = mix64(h + (static_cast<uint64_t>(b.value) * 0x9e3779b97f4a7c15ULL ^ b.exp));
  return static_cast<uint32_t>(h ^ (h >> 32));
}

bool Sequitur::same_digram(uint32_t a, uint32_t b) const {
  const Node &a1 = nodes_[a];
  const Node &b1 = nodes_[b];
  if (a1.value != b1.value || a1.exp != b1.exp)
    return false;
  const Node &a2 = nodes_[a1.next];
  const Node &b2 = nodes_[b1.next];
  return a2.value == b2.value && a2.exp == b2.exp;
}

size_t Sequitur::table_find(uint32_t n, uint32_t hash) const {
  const size_t mask = table_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot &s = table_[i];
    if (s.node == kNil)
      return kNotFound;
    if (s.hash == hash && same_digram(s.node, n))
      return i;
  }
}

void Sequitur::table_insert(uint32_t n, uint32_t hash) {
  if ((table_count_ + 1) * 2 > table_.size())
    table_grow();
  const size_t mask = table_.size() - 1;
  size_t i = hash & mask;
  while (table_[i].node != kNil)
    i = (i + 1) & mask;
  table_[i] = Slot{n, hash};
  ++table_count_;
}

void Sequitur::table_grow() {
  std::vector<Slot> old(table_.size() * 2, Slot{kNil, 0});
  old.swap(table_);
  const size_t mask = table_.size() - 1;
  for (const Slot &s : old) {
    if (s.node == kNil)
      continue;
    size_t i = s.hash & mask;
    while (table_[i].node != kNil)
      i = (i + 1) & mask;
    table_[i] = s;
  }
}

void Sequitur::table_erase(size_t slot) {
  const size_t mask = table_.size() - 1;
  size_t hole = slot;
  for (size_t j = (hole + 1) & mask; table_[j].node != kNil; j = (j + 1) & mask) {
    // An entry may move back into the hole unless its home slot lies
    // cyclically in (hole, j].
    size_t home = table_[j].hash & mask;
    bool stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
    if (!stays) {
      table_[hole] = table_[j];
      hole = j;
    }
  }
  table_[hole] = Slot{kNil, 0};
  --table_count_;
}

// Removes the index entry of the digram starting at n, if that entry is this
// occurrence. (Another occurrence of the same digram may exist transiently,
// queued for a check; its entry is not ours to remove.)
void Sequitur::unindex(uint32_t n) {
  if (is_guard(n) || is_guard(nodes_[n].next))
    return;
  size_t i = table_find(n, digram_hash(n));
  if (i != kNotFound && table_[i].node == n)
    table_erase(i);
}

// ---------------------------------------------------------------------------
// Grammar transformations

void Sequitur::append_general(uint32_t terminal) {
  if (tail_repeats_ > 0)
    apply_tail_repeats(); // append() counted the run's repeats: it ends here
  if (!pending_.empty()) {
    const CursorFrame &top = cursor_.back();
    if (nodes_[top.node].value == static_cast<int64_t>(terminal)) {
      pending_.push_back(terminal);
      if (advance_cursor()) {
        // A whole copy of the tail rule arrived: R^k -> R^(k+1).
        const uint32_t tail = nodes_[rules_[0].guard].prev;
        const uint32_t before = nodes_[tail].prev;
        unindex(before);
        set_exp(tail, nodes_[tail].exp + 1);
        push_check(before);
        length_ += pending_.size();
        pending_.clear();
        run();
      }
      return;
    }
    flush();
  } else if (loop_fast_path_ &&
             nodes_[nodes_[rules_[0].guard].prev].value == static_cast<int64_t>(terminal)) {
    tail_repeats_ = 1; // a^k a: applied when the run ends
    tail_terminal_ = terminal;
    return;
  } else if (loop_fast_path_ && start_loop_match() &&
             nodes_[cursor_.back().node].value == terminal) {
    pending_.push_back(terminal);
    if (!advance_cursor())
      return;
    // A rule expanding to a single terminal cannot exist (I4); be safe anyway.
    flush();
    return;
  }
  append_slow(terminal);
}

// a^k followed by tail_repeats_ more a: a^(k + tail_repeats_).
void Sequitur::apply_tail_repeats() {
  const uint32_t tail = nodes_[rules_[0].guard].prev;
  const uint32_t before = nodes_[tail].prev;
  unindex(before);
  set_exp(tail, nodes_[tail].exp + tail_repeats_);
  push_check(before);
  length_ += tail_repeats_;
  tail_repeats_ = 0;
  run();
}

void Sequitur::flush() {
  if (tail_repeats_ > 0)
    apply_tail_repeats();
  if (pending_.empty())
    return;
  flushing_.swap(pending_);
  pending_.clear();
  cursor_.clear();
  for (uint32_t t : flushing_)
    append_slow(t);
  flushing_.clear();
}

// Points the cursor at the first terminal of the start rule's last symbol when
// that symbol is a rule reference; false otherwise.
bool Sequitur::start_loop_match() {
  const uint32_t tail = nodes_[rules_[0].guard].prev;
  if (is_guard(tail) || nodes_[tail].value >= 0)
    return false;
  cursor_.clear();
  cursor_.push_back(CursorFrame{tail, 1}); // one more copy of the rule
  descend_cursor();
  return true;
}

// Pushes frames until the innermost one is a terminal.
void Sequitur::descend_cursor() {
  for (;;) {
    const Node &n = nodes_[cursor_.back().node];
    if (n.value >= 0)
      return;
    const uint32_t first = nodes_[rules_[rule_of(n.value)].guard].next;
    cursor_.push_back(CursorFrame{first, nodes_[first].exp});
  }
}

// Moves the cursor past one matched terminal; true when the whole tail rule
// has been matched.
bool Sequitur::advance_cursor() {
  for (;;) {
    CursorFrame &f = cursor_.back();
    if (--f.left > 0) {
      if (nodes_[f.node].value < 0) {
        const uint32_t first = nodes_[rules_[rule_of(nodes_[f.node].value)].guard].next;
        cursor_.push_back(CursorFrame{first, nodes_[first].exp});
        descend_cursor();
      }
      return false;
    }
    const uint32_t next = nodes_[f.node].next;
    if (cursor_.size() > 1 && !is_guard(next)) {
      f = CursorFrame{next, nodes_[next].exp};
      descend_cursor();
      return false;
    }
    cursor_.pop_back();
    if (cursor_.empty())
      return true;
  }
}

void Sequitur::append_slow(uint32_t terminal) {
  ++length_;
  const int64_t value = terminal;
  const uint32_t guard = rules_[0].guard;
  const uint32_t tail = nodes_[guard].prev;
  if (!is_guard(tail) && nodes_[tail].value == value) {
    // a^k a -> a^(k+1): the digram ending at the tail changes key.
    uint32_t before = nodes_[tail].prev;
    unindex(before);
    set_exp(tail, nodes_[tail].exp + 1);
    push_check(before);
  } else {
    uint32_t n = new_symbol(value, 1);
    link_after(tail, n);
    push_check(tail);
  }
  run();
}

void Sequitur::run() {
  for (;;) {
    // Structural repairs first: they only queue digram checks.
    if (!unit_work_.empty()) {
      uint32_t r = unit_work_.back();
      unit_work_.pop_back();
      remove_unit_rule(r);
    } else if (!utility_work_.empty()) {
      uint32_t r = utility_work_.back();
      utility_work_.pop_back();
      enforce_utility(r);
    } else if (!digram_work_.empty()) {
      uint32_t n = digram_work_.back();
      digram_work_.pop_back();
      check_digram(n);
    } else {
      break;
    }
  }
  if (!pending_nodes_.empty()) {
    free_nodes_.insert(free_nodes_.end(), pending_nodes_.begin(), pending_nodes_.end());
    pending_nodes_.clear();
  }
  if (!pending_rules_.empty()) {
    free_rules_.insert(free_rules_.end(), pending_rules_.begin(), pending_rules_.end());
    pending_rules_.clear();
  }
}

// Indexes the digram starting at n, or resolves its repetition (I2).
void Sequitur::check_digram(uint32_t n) {
  if (nodes_[n].exp == 0 || is_guard(n) || is_guard(nodes_[n].next))
    return; // freed, or no longer the start of a digram
  const uint32_t hash = digram_hash(n);
  const size_t slot = table_find(n, hash);
  if (slot == kNotFound) {
    table_insert(n, hash);
    return;
  }
  const uint32_t m = table_[slot].node;
  if (m == n)
    return;
  // I1 rules out overlapping occurrences.
  assert(nodes_[m].next != n && nodes_[n].next != m);
  process_match(n, m);
}

// The digram at n repeats the indexed one at m: replace both by a rule.
void Sequitur::process_match(uint32_t n, uint32_t m) {
  // Reuse a rule whose entire body is the digram (never the start rule).
  if (reuse_rules_ && is_whole_body(m) && owner_of_guard(nodes_[m].prev) != 0) {
    substitute(n, owner_of_guard(nodes_[m].prev));
    return;
  }
  if (is_whole_body(n) && owner_of_guard(nodes_[n].prev) != 0) {
    substitute(m, owner_of_guard(nodes_[n].prev));
    push_check(n); // the index entry was m's; the rule body's digram needs one
    return;
  }
  const uint32_t r = alloc_rule();
  const uint32_t guard = rules_[r].guard;
  const uint32_t m2 = nodes_[m].next;
  const uint32_t first = new_symbol(nodes_[m].value, nodes_[m].exp);
  link_after(guard, first);
  const uint32_t second = new_symbol(nodes_[m2].value, nodes_[m2].exp);
  link_after(first, second);
  // The first substitution cannot touch n's digram: the new rule's symbol has
  // no equal neighbour to merge with, and the occurrences do not overlap.
  substitute(m, r);
  substitute(n, r);
  push_check(first);
}

// Replaces the digram starting at n by one symbol referencing `rule`.
void Sequitur::substitute(uint32_t n, uint32_t rule) {
  const uint32_t n2 = nodes_[n].next;
  const uint32_t before = nodes_[n].prev;
  unindex(before);
  unindex(n);
  unindex(n2);
  delete_symbol(n);
  delete_symbol(n2);
  uint32_t s = new_symbol(rule_value(rule), 1);
  link_after(before, s);
  s = coalesce(s);
  // A body reduced to one symbol with exponent 1 makes its rule trivial (I4).
  const uint32_t p = nodes_[s].prev;
  if (is_guard(p) && is_guard(nodes_[s].next) && nodes_[s].exp == 1 && owner_of_guard(p) != 0)
    unit_work_.push_back(owner_of_guard(p));
}

// n has just become adjacent to its neighbours: merges it with a neighbour of
// the same value (I1) and queues the digrams around the result for checking.
// Returns the surviving node.
uint32_t Sequitur::coalesce(uint32_t n) {
  const uint32_t p = nodes_[n].prev;
  if (!is_guard(p) && nodes_[p].value == nodes_[n].value) {
    unindex(nodes_[p].prev);
    unindex(p);
    unindex(n);
    set_exp(p, nodes_[p].exp + nodes_[n].exp);
    delete_symbol(n);
    n = p;
  }
  const uint32_t q = nodes_[n].next;
  if (!is_guard(q) && nodes_[q].value == nodes_[n].value) {
    unindex(nodes_[n].prev);
    unindex(n);
    unindex(q);
    set_exp(n, nodes_[n].exp + nodes_[q].exp);
    delete_symbol(q);
  }
  push_check(nodes_[n].prev);
  push_check(n);
  return n;
}

// Restores rule utility (I3) for `rule` if it is still violated: a rule used
// once is inlined at its one reference (which then has exponent 1).
void Sequitur::enforce_utility(uint32_t rule) {
  if (rule == 0 || !rules_[rule].live || rules_[rule].uses >= 2)
    return;
  const uint32_t guard = rules_[rule].guard;
  if (rules_[rule].uses == 0) {
    // Unreferenced. Not expected to happen; delete the body for robustness.
    while (nodes_[guard].next != guard) {
      uint32_t f = nodes_[guard].next;
      unindex(f);
      delete_symbol(f);
    }
    release_rule(rule);
    return;
  }
  const uint32_t ref = rules_[rule].ref_head;
  assert(nodes_[ref].exp == 1 && nodes_[ref].ref_next == kNil);
  const uint32_t before = nodes_[ref].prev;
  const uint32_t after = nodes_[ref].next;
  unindex(before);
  unindex(ref);
  delete_symbol(ref); // before and after are now adjacent
  const uint32_t first = nodes_[guard].next;
  const uint32_t last = nodes_[guard].prev;
  release_rule(rule);
  if (first == guard) { // empty body: nothing to splice
    if (!is_guard(after))
      coalesce(after);
    else
      push_check(before);
    return;
  }
  // Splice the body in place of the reference. The digrams inside the body
  // keep their index entries: their nodes and keys are unchanged.
  nodes_[before].next = first;
  nodes_[first].prev = before;
  nodes_[last].next = after;
  nodes_[after].prev = last;
  nodes_[guard].next = nodes_[guard].prev = guard;
  coalesce(first);
  if (first != last)
    coalesce(last); // last survived: it cannot merge with its body neighbour
}

// Removes `rule` if its body is a single symbol B with exponent 1 (I4):
// every reference R^k becomes B^k.
void Sequitur::remove_unit_rule(uint32_t rule) {
  if (rule == 0 || !rules_[rule].live)
    return;
  const uint32_t guard = rules_[rule].guard;
  const uint32_t body = nodes_[guard].next;
  if (body == guard || nodes_[body].next != guard || nodes_[body].exp != 1)
    return; // no longer trivial
  const int64_t value = nodes_[body].value;
  while (rules_[rule].ref_head != kNil) {
    const uint32_t ref = rules_[rule].ref_head;
    unindex(nodes_[ref].prev);
    unindex(ref);
    drop_ref(ref);
    nodes_[ref].value = value;
    add_ref(ref);
    coalesce(ref);
  }
  delete_symbol(body);
  release_rule(rule);
}

// ---------------------------------------------------------------------------
// Export

std::vector<std::vector<GrammarSymbol>> Sequitur::rules() const {
  if (!pending_.empty() || tail_repeats_ > 0) {
    // Export what the grammar is once the held-back terminals are in it, so
    // that the exported grammar keeps every invariant.
    Sequitur flushed(*this);
    flushed.flush();
    return flushed.rules();
  }
  std::vector<std::vector<GrammarSymbol>> out;
  std::vector<uint32_t> id(rules_.size(), kNil);
  std::vector<uint32_t> order{0};
  id[0] = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    const uint32_t guard = rules_[order[k]].guard;
    std::vector<GrammarSymbol> body;
    for (uint32_t n = nodes_[guard].next; n != guard; n = nodes_[n].next) {
      const Node &node = nodes_[n];
      if (node.value >= 0) {
        body.push_back(GrammarSymbol{node.value, node.exp});
        continue;
      }
      const uint32_t r = rule_of(node.value);
      if (id[r] == kNil) {
        id[r] = static_cast<uint32_t>(order.size());
        order.push_back(r);
      }
      body.push_back(GrammarSymbol::nonterminal(id[r], node.exp));
    }
    out.push_back(std::move(body));
  }
  return out;
}

std::vector<uint32_t> Sequitur::expand() const {
  // The output is sized up front and written through a pointer, and nodes are
  // read through a raw pointer: tests call this after every append, also in
  // unoptimised builds.
  std::vector<uint32_t> out(static_cast<size_t>(length_));
  uint32_t *dst = out.data();
  uint32_t *const end = dst + out.size();
  const Node *nodes = nodes_.data();
  struct Frame {
    uint32_t guard;
    uint32_t node;
    uint64_t left; // repetitions of the body still to emit, this one included
  };
  // A path of nested rules visits each rule at most once (the grammar is
  // acyclic), so rule_count() frames suffice.
  std::vector<Frame> stack(rule_count_);
  Frame *const frames = stack.data();
  size_t depth = 1;
  const uint32_t start = rules_[0].guard;
  frames[0] = Frame{start, nodes[start].next, 1};
  while (depth > 0) {
    Frame &f = frames[depth - 1];
    if (f.node == f.guard) {
      if (--f.left == 0)
        --depth;
      else
        f.node = nodes[f.guard].next;
      continue;
    }
    const Node &node = nodes[f.node];
    f.node = node.next;
    if (node.value >= 0) {
      if (node.exp > static_cast<uint64_t>(end - dst))
        throw std::logic_error("pilgrim::Sequitur: grammar longer than length()");
      for (uint64_t i = 0; i < node.exp; ++i)
        *dst++ = static_cast<uint32_t>(node.value);
    } else {
      if (depth == stack.size())
        throw std::logic_error("pilgrim::Sequitur: grammar nested deeper than its rule count");
      const uint32_t guard = rules_[rule_of(node.value)].guard;
      frames[depth++] = Frame{guard, nodes[guard].next, node.exp};
    }
  }
  out.resize(static_cast<size_t>(dst - out.data()));
  out.insert(out.end(), pending_.begin(), pending_.end());
  if (tail_repeats_ > 0)
    out.insert(out.end(), static_cast<size_t>(tail_repeats_),
               static_cast<uint32_t>(nodes_[nodes_[rules_[0].guard].prev].value));
  return out;
}

size_t Sequitur::memory_bytes() const {
  return sizeof(*this) + nodes_.capacity() * sizeof(Node) + rules_.capacity() * sizeof(Rule) +
         table_.capacity() * sizeof(Slot) +
         (free_nodes_.capacity() + free_rules_.capacity() + pending_nodes_.capacity() +
          pending_rules_.capacity() + digram_work_.capacity() + utility_work_.capacity() +
          unit_work_.capacity() + pending_.capacity() + flushing_.capacity()) *
             sizeof(uint32_t) +
         cursor_.capacity() * sizeof(CursorFrame);
}

// ---------------------------------------------------------------------------
// Invariant check. Written defensively (every index is bounds-checked before
// use) so that it reports, rather than crashes on, a corrupted structure.

bool Sequitur::check_invariants(std::string *why) const {
  auto fail = [why](const std::string &msg) {
    if (why)
      *why = msg;
    return false;
  };
  auto str = [](uint64_t v) { return std::to_string(v); };
  // Messages are built only on failure: this runs after every append in tests.
  auto fail_rule = [&](uint32_t r, const char *msg) { return fail("rule " + str(r) + ": " + msg); };
  auto fail_symbol = [&](uint32_t r, size_t i, const char *msg) {
    return fail("rule " + str(r) + ": symbol " + str(i) + ": " + msg);
  };
  const size_t num_nodes = nodes_.size();
  const size_t num_rules = rules_.size();
  const Node *nodes = nodes_.data(); // raw pointers: cheap also at -O0
  const Rule *rules = rules_.data();

  if (num_rules == 0 || !rules[0].live)
    return fail("start rule missing");
  if (!digram_work_.empty() || !utility_work_.empty() || !unit_work_.empty() ||
      !pending_nodes_.empty() || !pending_rules_.empty())
    return fail("work queues not drained");

  // Walk every rule body: links, values, I1, I2, I4.
  std::vector<uint8_t> in_body(num_nodes, 0); // 1: symbol of a live body, 2: guard
  std::vector<uint64_t> uses(num_rules, 0);
  std::vector<uint64_t> refs(num_rules, 0);
  size_t symbols = 0, live_rules = 0, digrams = 0;
  for (uint32_t r = 0; r < num_rules; ++r) {
    const Rule &rule = rules[r];
    const uint32_t g = rule.guard;
    if (g >= num_nodes || nodes[g].value != kGuard || nodes[g].ref_next != r)
      return fail_rule(r, "bad guard node");
    if (in_body[g])
      return fail_rule(r, "guard node shared");
    in_body[g] = 2;
    if (!rule.live) {
      if (nodes[g].next != g || nodes[g].prev != g)
        return fail_rule(r, "free rule has a body");
      continue;
    }
    ++live_rules;
    uint32_t prev = g;
    size_t len = 0;
    for (uint32_t n = nodes[g].next; n != g; n = nodes[n].next) {
      if (n >= num_nodes)
        return fail_symbol(r, len, "link out of range");
      if (in_body[n])
        return fail_symbol(r, len, "node reached twice");
      in_body[n] = 1;
      const Node &node = nodes[n];
      if (node.prev != prev)
        return fail_symbol(r, len, "prev link inconsistent");
      if (node.exp == 0)
        return fail_symbol(r, len, "freed node in a body");
      if (node.value == kGuard)
        return fail_symbol(r, len, "foreign guard in a body");
      if (node.value < 0) {
        const uint32_t c = rule_of(node.value);
        if (c >= num_rules || !rules[c].live || c == 0)
          return fail_symbol(r, len, "reference to a missing rule or the start rule");
        uses[c] += node.exp;
        ++refs[c];
      } else if (node.value > static_cast<int64_t>(std::numeric_limits<uint32_t>::max())) {
        return fail_symbol(r, len, "terminal out of range");
      }
      if (prev != g) {
        if (nodes[prev].value == node.value)
          return fail_symbol(r, len, "equal to its predecessor, not merged (I1)");
        ++digrams;
        const size_t slot = table_find(prev, digram_hash(prev));
        if (slot == kNotFound)
          return fail_symbol(r, len, "digram ending here not indexed");
        if (table_[slot].node != prev)
          return fail_symbol(r, len, "digram ending here occurs twice (I2)");
      }
      ++symbols;
      ++len;
      prev = n;
    }
    if (nodes[g].prev != prev)
      return fail_rule(r, "guard prev link inconsistent");
    if (r != 0 && (len == 0 || (len == 1 && nodes[nodes[g].next].exp < 2)))
      return fail_rule(r, "trivial rule body (I4)");
  }
  if (symbols != symbol_count_)
    return fail("symbol_count " + str(symbol_count_) + " but " + str(symbols) + " symbols");
  if (live_rules != rule_count_)
    return fail("rule_count " + str(rule_count_) + " but " + str(live_rules) + " live rules");

  // The digram index holds exactly the digrams of the grammar, each with its
  // current hash. With the walk above this gives a bijection.
  if (digrams != table_count_)
    return fail("index holds " + str(table_count_) + " entries for " + str(digrams) + " digrams");
  size_t occupied = 0;
  for (const Slot *slot = table_.data(), *end = slot + table_.size(); slot != end; ++slot) {
    const Slot &s = *slot;
    if (s.node == kNil)
      continue;
    ++occupied;
    if (s.node >= num_nodes || in_body[s.node] != 1 || nodes[s.node].next >= num_nodes ||
        in_body[nodes[s.node].next] != 1)
      return fail("index entry for a node that does not start a digram");
    if (s.hash != digram_hash(s.node))
      return fail("index entry with a stale hash");
  }
  if (occupied != table_count_)
    return fail("index count inconsistent");

  // Reference lists and counts; rule utility (I3).
  for (uint32_t r = 0; r < num_rules; ++r) {
    const Rule &rule = rules[r];
    if (!rule.live)
      continue;
    if (rule.uses != uses[r] || rule.refs != refs[r])
      return fail_rule(r, "reference counts inconsistent");
    uint64_t listed = 0;
    uint32_t prev = kNil;
    for (uint32_t n = rule.ref_head; n != kNil; n = nodes[n].ref_next) {
      if (n >= num_nodes || in_body[n] != 1 || nodes[n].value != rule_value(r) ||
          nodes[n].ref_prev != prev || ++listed > refs[r])
        return fail_rule(r, "reference list inconsistent");
      prev = n;
    }
    if (listed != refs[r])
      return fail_rule(r, "reference list incomplete");
    if (r != 0 && uses[r] < 2)
      return fail("rule " + str(r) + ": used " + str(uses[r]) + " time(s) (I3)");
  }

  // Pools: every node is a guard, a live symbol or free; free slots are unique.
  size_t free_seen = 0;
  for (uint32_t n : free_nodes_) {
    if (n >= num_nodes || in_body[n] != 0 || nodes[n].exp != 0)
      return fail("free list holds a node in use");
    in_body[n] = 3;
    ++free_seen;
  }
  if (free_seen + symbols + num_rules != num_nodes)
    return fail("node pool leaks");
  std::vector<uint8_t> rule_free(num_rules, 0);
  for (uint32_t r : free_rules_) {
    if (r >= num_rules || rules[r].live || rule_free[r])
      return fail("rule free list inconsistent");
    rule_free[r] = 1;
  }
  if (free_rules_.size() + live_rules != num_rules)
    return fail("rule pool leaks");

  // I5: acyclic, all live rules reachable from the start rule, and the
  // expansion length equals the number of appended terminals. Iterative DFS
  // that computes each rule's expansion length in post-order.
  std::vector<uint8_t> state(num_rules, 0); // 0 new, 1 on stack, 2 done
  std::vector<uint64_t> len(num_rules, 0);
  // (rule, next node to visit); each rule is pushed at most once.
  std::vector<std::pair<uint32_t, uint32_t>> stack(num_rules);
  std::pair<uint32_t, uint32_t> *const frames = stack.data();
  size_t depth = 1;
  state[0] = 1;
  frames[0] = {0, nodes[rules[0].guard].next};
  while (depth > 0) {
    const uint32_t r = frames[depth - 1].first;
    const uint32_t n = frames[depth - 1].second;
    const uint32_t g = rules[r].guard;
    if (n == g) {
      uint64_t total = 0;
      for (uint32_t k = nodes[g].next; k != g; k = nodes[k].next) {
        const Node &node = nodes[k];
        const uint64_t unit = node.value >= 0 ? 1 : len[rule_of(node.value)];
        total = sat_add(total, sat_mul(unit, node.exp));
      }
      len[r] = total;
      state[r] = 2;
      --depth;
      continue;
    }
    frames[depth - 1].second = nodes[n].next;
    if (nodes[n].value >= 0)
      continue;
    const uint32_t c = rule_of(nodes[n].value);
    if (state[c] == 1)
      return fail("rule " + str(c) + " is part of a cycle");
    if (state[c] == 0) {
      state[c] = 1;
      frames[depth++] = {c, nodes[rules[c].guard].next};
    }
  }
  size_t reached = 0;
  for (uint32_t r = 0; r < num_rules; ++r)
    reached += state[r] == 2;
  if (reached != live_rules)
    return fail("some rule is unreachable from the start rule");
  if (tail_repeats_ > 0) {
    const uint32_t tail = nodes[rules[0].guard].prev;
    if (tail >= num_nodes || nodes[tail].value < 0 || !pending_.empty())
      return fail("repeats are held back but the start rule does not end with a terminal");
  }
  if (!pending_.empty()) {
    const uint32_t tail = nodes[rules[0].guard].prev;
    if (tail >= num_nodes || nodes[tail].value >= 0 || cursor_.empty())
      return fail("terminals are held back but the start rule does not end with a rule");
  }
  if (len[0] != length_)
    return fail("grammar expands to " + str(len[0]) + " terminals, " + str(length_) +
                " were appended");
  return true;
}

// ---------------------------------------------------------------------------
// Free functions

std::vector<uint32_t> expand_rules(const std::vector<std::vector<GrammarSymbol>> &rules) {
  if (rules.empty())
    return {};
  const size_t num_rules = rules.size();
  for (size_t r = 0; r < num_rules; ++r) {
    for (const GrammarSymbol &s : rules[r]) {
      const std::string where = "rule " + std::to_string(r) + ": ";
      if (s.exp == 0)
        throw std::runtime_error(where + "symbol with exponent 0");
      if (s.is_rule() && s.rule() >= num_rules)
        throw std::runtime_error(where + "reference to missing rule " + std::to_string(s.rule()));
      if (!s.is_rule() && s.value > static_cast<int64_t>(std::numeric_limits<uint32_t>::max()))
        throw std::runtime_error(where + "terminal id " + std::to_string(s.value) +
                                 " out of range");
    }
  }

  // Reject cycles anywhere (iterative DFS from every rule) and compute each
  // rule's expansion length in post-order.
  std::vector<uint8_t> state(num_rules, 0); // 0 new, 1 on stack, 2 done
  std::vector<uint64_t> len(num_rules, 0);
  std::vector<std::pair<size_t, size_t>> stack; // (rule, next position)
  for (size_t root = 0; root < num_rules; ++root) {
    if (state[root] != 0)
      continue;
    state[root] = 1;
    stack.emplace_back(root, 0);
    while (!stack.empty()) {
      const size_t r = stack.back().first;
      const size_t pos = stack.back().second;
      if (pos == rules[r].size()) {
        uint64_t total = 0;
        for (const GrammarSymbol &s : rules[r])
          total = sat_add(total, sat_mul(s.is_rule() ? len[s.rule()] : 1, s.exp));
        len[r] = total;
        state[r] = 2;
        stack.pop_back();
        continue;
      }
      ++stack.back().second;
      const GrammarSymbol &s = rules[r][pos];
      if (!s.is_rule())
        continue;
      const size_t c = static_cast<size_t>(s.rule());
      if (state[c] == 1)
        throw std::runtime_error("grammar has a cycle through rule " + std::to_string(c));
      if (state[c] == 0) {
        state[c] = 1;
        stack.emplace_back(c, 0);
      }
    }
  }

  std::vector<uint32_t> out;
  if (len[0] == std::numeric_limits<uint64_t>::max() || len[0] > out.max_size())
    throw std::runtime_error("grammar expansion too long");
  out.reserve(static_cast<size_t>(len[0]));
  struct Frame {
    size_t rule;
    size_t pos;
    uint64_t left;
  };
  std::vector<Frame> frames{Frame{0, 0, 1}};
  while (!frames.empty()) {
    Frame &f = frames.back();
    const std::vector<GrammarSymbol> &body = rules[f.rule];
    if (f.pos == body.size()) {
      if (--f.left == 0 || body.empty())
        frames.pop_back();
      else
        f.pos = 0;
      continue;
    }
    const GrammarSymbol &s = body[f.pos++];
    if (s.is_rule())
      frames.push_back(Frame{static_cast<size_t>(s.rule()), 0, s.exp}); // invalidates f
    else
      out.insert(out.end(), s.exp, static_cast<uint32_t>(s.value));
  }
  return out;
}

} // namespace pilgrim
