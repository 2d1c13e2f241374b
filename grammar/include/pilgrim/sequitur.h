// Online Sequitur grammar with repetition counts (exponents).
//
// Each MPI rank turns its calls into terminal ids (see the call signature
// table); this class compresses that sequence into a straight-line grammar as
// the ids arrive, as in Pilgrim's paper (section 2.2) and Nevill-Manning &
// Witten's Sequitur, extended with exponents: a symbol is a pair (value, exp)
// standing for `value` repeated `exp` times. Two adjacent symbols with the same
// value are always merged, `a^i a^j` -> `a^(i+j)`, so a loop of N identical
// iterations costs O(1) symbols (S -> A^N) instead of O(log N) rules.
//
// Invariants held after every append() (check_invariants() verifies them):
//
//  I1 Merged runs: no two adjacent symbols of a rule body have the same value.
//     (This also removes Sequitur's "overlapping digram" case: `a a a` is the
//     single symbol a^3, so two occurrences of one digram never overlap.)
//  I2 Digram uniqueness: a digram is a pair of adjacent symbols *including
//     their exponents*, ((x, i), (y, j)); (a^2 b) and (a^3 b) are different
//     digrams. No digram occurs twice in the grammar.
//  I3 Rule utility, counted with exponents: every rule other than the start
//     rule has uses >= 2, where uses(R) is the sum of the exponents of all
//     symbols that reference R. So a rule is kept when it is referenced from
//     two places, or from one place with exponent > 1 (S -> A^5 keeps A: that
//     is the loop body). A rule referenced exactly once with exponent 1 is
//     inlined.
//  I4 No trivial rules: the body of a rule other than the start rule is at
//     least two symbols long, or a single symbol with exponent >= 2 (A -> B^3,
//     a loop nested directly in a loop). A body that shrinks to one symbol
//     with exponent 1 (A -> B) is removed and its references renamed to B.
//     (That needs two rules with equal bodies. No input tried so far leads
//     there; the unit test forces the path through SequiturTestAccess.)
//  I5 The grammar is acyclic, every rule is reachable from the start rule and
//     it expands to exactly the appended sequence.
//
// Loop fast path: when the start rule ends with a rule reference R^k, the
// next terminals are compared with R's expansion through a cursor and held
// back ("pending") instead of being run through the digram machinery. When a
// whole copy of R has arrived, the tail becomes R^(k+1) (what Sequitur itself
// ends with for a loop body, here in O(1) per terminal without building and
// tearing down a temporary rule); on the first terminal that differs, the
// held-back terminals are appended the ordinary way. Pending terminals are
// part of length(), expand() and rules(); check_invariants() checks the
// grammar without them. Likewise a run of the start rule's last terminal,
// a^k a a a, only counts the repeats and applies a^(k+3) once the run ends.
//
// Cost: append() is amortized O(1) (a hash table indexes the digrams). Symbol
// nodes and rules come from pools with free lists and the work queues keep
// their capacity, so in steady state (e.g. a loop) append() does not allocate.
// The structure is deterministic: the same input gives the same grammar.
// Not thread-safe; use one instance per thread (or lock around it). If
// append() throws (std::bad_alloc, or std::length_error past 2^32 - 1 nodes
// or rules) the object must not be used further.
#pragma once

#include "pilgrim/grammar_model.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim {

// GrammarSymbol (a symbol of an exported grammar) is the trace format's own
// type, so that a grammar goes to and from the file without conversion.

class Sequitur {
public:
  Sequitur();

  // Appends one terminal to the start rule and restores the invariants.
  // Amortized O(1). A run of the start rule's last terminal (a loop of one
  // call) only counts, here, inline: the call's hot path.
  void append(uint32_t terminal) {
    if (tail_repeats_ > 0 && terminal == tail_terminal_) {
      ++tail_repeats_;
      return;
    }
    append_general(terminal);
  }

  // The grammar in compact form: rules renumbered 0..R-1, rule 0 the start
  // rule, the others in breadth-first order of first use (rule 0's body left
  // to right, then rule 1's, ...). Every exported rule is referenced.
  std::vector<std::vector<GrammarSymbol>> rules() const;

  // The full input sequence (O(length()) time).
  std::vector<uint32_t> expand() const;

  // Number of terminals appended so far.
  uint64_t length() const { return length_ + pending_.size() + tail_repeats_; }

  // Appends the held-back terminals of the loop fast path the ordinary way,
  // so that the grammar alone expands to the whole input.
  void flush();

  // Verifies I1..I5 and the internal links (sequence lists, digram index,
  // reference lists and counts, pools). O(size of the grammar). On failure
  // returns false and, when `why` is not null, describes the first problem.
  bool check_invariants(std::string *why) const;

  // Bytes held by the structure, including unused pool and table capacity.
  size_t memory_bytes() const;

  // Live rules, counting the start rule.
  size_t rule_count() const { return rule_count_; }
  // Symbols in all rule bodies (a^5 counts as one symbol).
  size_t symbol_count() const { return symbol_count_; }

private:
  friend struct SequiturTestAccess; // test/unit/sequitur_test.cpp

  // A symbol of a rule body, or a rule's guard node. Rule bodies are circular
  // doubly linked lists through a guard node, as in the original Sequitur.
  struct Node {
    int64_t value; // terminal id, -(rule + 1), or kGuard for a guard node
    uint64_t exp;  // >= 1 while in use; 0 when free (or freed during this append)
    uint32_t prev;
    uint32_t next;
    // Nonterminals: neighbours in the referenced rule's list of references.
    // Guards: ref_next holds the index of the owning rule.
    uint32_t ref_prev;
    uint32_t ref_next;
  };

  struct Rule {
    uint32_t guard;    // guard node of the body, owned for the life of the slot
    uint32_t ref_head; // first node referencing this rule, or kNil
    uint32_t refs;     // number of nodes referencing this rule
    bool live;
    uint64_t uses; // sum of the exponents of the referencing nodes (I3)
  };

  // One slot of the open-addressing digram table; a digram is named by its
  // first node, whose current contents (and its successor's) form the key.
  struct Slot {
    uint32_t node; // kNil when empty
    uint32_t hash;
  };

  static constexpr uint32_t kNil = UINT32_MAX;

  // Pools.
  uint32_t alloc_node();
  uint32_t alloc_rule();
  void release_node(uint32_t n);
  void release_rule(uint32_t r);

  // Symbols and links.
  bool is_guard(uint32_t n) const;
  uint32_t owner_of_guard(uint32_t g) const;
  uint32_t new_symbol(int64_t value, uint64_t exp);
  void delete_symbol(uint32_t n);
  void link_after(uint32_t p, uint32_t n);
  void add_ref(uint32_t n);
  void drop_ref(uint32_t n);
  void set_exp(uint32_t n, uint64_t exp);
  bool is_whole_body(uint32_t n) const;

  // Digram index.
  uint32_t digram_hash(uint32_t n) const;
  bool same_digram(uint32_t a, uint32_t b) const;
  size_t table_find(uint32_t n, uint32_t hash) const;
  void table_insert(uint32_t n, uint32_t hash);
  void table_erase(size_t slot);
  void table_grow();
  void unindex(uint32_t n);

  // Grammar transformations.
  void append_general(uint32_t terminal); // append() past its run-counting fast path
  void append_slow(uint32_t terminal);
  void apply_tail_repeats();
  bool start_loop_match();
  void descend_cursor();
  bool advance_cursor();
  void run();
  void check_digram(uint32_t n);
  void process_match(uint32_t n, uint32_t m);
  void substitute(uint32_t n, uint32_t rule);
  uint32_t coalesce(uint32_t n);
  void enforce_utility(uint32_t rule);
  void remove_unit_rule(uint32_t rule);
  void push_check(uint32_t n);

  std::vector<Node> nodes_;
  std::vector<Rule> rules_;
  std::vector<uint32_t> free_nodes_;
  std::vector<uint32_t> free_rules_;
  // Nodes and rules released during the current append(); recycled at its end
  // so that stale queue entries never see a reused slot.
  std::vector<uint32_t> pending_nodes_;
  std::vector<uint32_t> pending_rules_;
  // Work queues: digrams to check (by first node), rules whose utility may be
  // violated (I3), rules whose body may have become a single symbol (I4).
  std::vector<uint32_t> digram_work_;
  std::vector<uint32_t> utility_work_;
  std::vector<uint32_t> unit_work_;

  std::vector<Slot> table_;
  size_t table_count_ = 0;

  // Loop fast path: terminals matched against the tail rule's expansion, and
  // the cursor into it (innermost last; `left` counts the repetitions of the
  // frame's node still to match, the current one included).
  struct CursorFrame {
    uint32_t node;
    uint64_t left;
  };
  std::vector<uint32_t> pending_;
  std::vector<CursorFrame> cursor_;
  std::vector<uint32_t> flushing_;
  uint64_t tail_repeats_ = 0;  // copies of the start rule's last terminal held back
  uint32_t tail_terminal_ = 0; // that terminal, while tail_repeats_ > 0

  uint64_t length_ = 0; // terminals in the grammar, pending_ excluded
  size_t rule_count_ = 0;
  size_t symbol_count_ = 0;
  // Tests only: when false, a digram matching an entire rule body makes a new
  // rule anyway, so the old rule becomes trivial and is renamed away (I4).
  bool reuse_rules_ = true;
  // Tests only: when false, every terminal takes the ordinary path.
  bool loop_fast_path_ = true;
};

// Expands an exported grammar (rule 0 is the start rule) to its terminal
// sequence; a grammar with no rules is the empty sequence (as in
// pilgrim/grammar_model.h). Throws std::runtime_error on a malformed grammar:
// a reference to a missing rule, a cycle (anywhere, reachable or not), an
// exponent of 0, a terminal id that does not fit 32 bits, or an expansion too
// long to hold in memory.
std::vector<uint32_t> expand_rules(const std::vector<std::vector<GrammarSymbol>> &rules);

} // namespace pilgrim
