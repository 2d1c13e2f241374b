// The cfg timing codec's Sequitur (timing/src/chunk_cfg.cpp): Nevill-Manning
// and Witten's algorithm as published (digram uniqueness, rule utility),
// specialised for one chunk's timing symbols. pilgrim::Sequitur
// (pilgrim/sequitur.h, beside it in grammar/) carries what a call stream needs: repetition counts kept
// while building, a loop fast path, invariant checks, bounded growth over a
// whole run. A chunk's gap and duration symbols are noisy (few long repeats,
// a new digram at almost every symbol), and there that machinery is pure
// cost: this one folds runs first, then keeps the classic linked symbols and
// one open-addressing digram table in two flat arrays, with no exponents
// while building (rules() merges adjacent equal symbols into exponents), and
// is used once per chunk.
// On README's fixed Comm_rank stream cfg's encoder takes 886 instructions
// per call instead of 1836 (README, "what the encoder costs per codec"),
// and 544 since issue 17's third round (803 before it, on a fresh trace).
//
// The grammar is a Sequitur grammar in the format's terms (docs/FORMAT.md
// §7.10, cfg): every rule but rule 0 is used at least twice and no digram
// occurs twice (the classic algorithm's overlapping-digram exception aside),
// and it expands to exactly the appended symbols.
#pragma once

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_model.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim {

class LeanSequitur {
public:
  LeanSequitur();
  // Runs are folded before Sequitur sees them: a run of k equal terminals
  // is one input symbol (terminal, k), exported as terminal^k.
  void append(uint32_t terminal) {
    if (run_length_ > 0 && terminal == run_terminal_ && run_length_ < kMaxRun) {
      ++run_length_;
      return;
    }
    if (run_length_ > 0)
      push(run_terminal_, run_length_);
    run_terminal_ = terminal;
    run_length_ = 1;
  }
  // Rule 0 the start rule, the others in breadth-first order of first use;
  // adjacent equal symbols merged into one with an exponent.
  std::vector<std::vector<GrammarSymbol>> rules() const;
  // Writes rules() as put_rules does (docs/FORMAT.md §7), without building
  // them first.
  void put(ByteWriter &w) const;

private:
  static constexpr uint32_t kNil = UINT32_MAX;
  static constexpr uint64_t kMaxRun = uint64_t{1} << 30;
  // value: a terminal (>= 0), a rule reference -(rule + 1), or a guard
  // kGuard + rule (below every reference).
  static constexpr int64_t kGuard = INT64_MIN / 2;
  struct Node {
    int64_t value;
    uint32_t prev, next;
  };
  struct Rule {
    uint32_t guard;
    uint32_t uses;
  };
  struct Slot {
    uint32_t node; // kNil: empty
    uint32_t hash;
  };

  // Guards lie below -2^61, references at or above -2^32.
  bool guard(uint32_t n) const { return nodes_[n].value < kGuard / 2; }
  uint32_t rule_of(int64_t v) const { return static_cast<uint32_t>(-(v + 1)); }
  uint32_t first(uint32_t r) const { return nodes_[rules_[r].guard].next; }
  uint32_t last(uint32_t r) const { return nodes_[rules_[r].guard].prev; }

  uint32_t new_node(int64_t value);
  uint32_t new_rule();
  void free_node(uint32_t n);

  static uint32_t hash_of(int64_t a, int64_t b);
  size_t slot_of(int64_t a, int64_t b, uint32_t h) const;
  uint32_t find(uint32_t n, size_t &slot, uint32_t &h) const;
  void set(uint32_t n);
  void erase_slot(size_t s);
  void delete_digram(uint32_t n);
  void grow();

  void join(uint32_t left, uint32_t right);
  void insert_after(uint32_t at, uint32_t n);
  bool check(uint32_t n);
  void match(uint32_t ss, uint32_t m);
  void substitute(uint32_t n, uint32_t rule, bool indexed);
  void expand(uint32_t n);
  void push(uint32_t terminal, uint64_t run); // the classic append
  // The rules reachable from rule 0, breadth-first, and each one's number.
  std::vector<uint32_t> rule_order(std::vector<int64_t> &number) const;
  // A rule's body as exported: references numbered, runs merged.
  void body_of(uint32_t rule, const std::vector<int64_t> &number,
               std::vector<GrammarSymbol> &body) const;
  // An input symbol's node value: terminal + 2^32 (run - 1).
  static GrammarSymbol symbol_of(int64_t value) {
    return GrammarSymbol{value & 0xffffffff, static_cast<uint64_t>(value >> 32) + 1};
  }

  std::vector<Node> nodes_;
  std::vector<Rule> rules_;
  uint32_t free_node_ = kNil; // freed nodes, linked through next
  std::vector<uint32_t> free_rules_;
  std::vector<Slot> table_;
  size_t mask_ = 0; // table_.size() - 1
  size_t table_count_ = 0;
  uint32_t run_terminal_ = 0;
  uint64_t run_length_ = 0; // the run not pushed yet
};

} // namespace pilgrim
