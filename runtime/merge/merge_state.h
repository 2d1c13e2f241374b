// What a subtree of ranks has merged so far, on the way up the reduction
// tree of MPI_Finalize (docs/design/merge.md):
//  - one CST over the subtree: equal signatures are one entry, with counts
//    added and timing combined;
//  - the subtree's distinct grammars, renumbered to that CST: equal grammars
//    are found by hash and confirmed by a full comparison, so a hash
//    collision can never merge different grammars;
//  - which ranks have which grammar, as ranges;
//  - the ranks' communicator tables, each distinct table once (comm_tables.h).
// Its size follows the distinct signatures and grammars, not the number of
// ranks, and so does the memory of the rank holding it. A state travels
// between ranks as bytes (serialize/parse).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "comm_tables.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

class MergeState {
public:
  MergeState() = default;
  // The state of one rank.
  static MergeState of_rank(uint32_t rank, RankTrace rank_trace);

  // Folds in another subtree's state (its ranks must be disjoint from ours).
  void absorb(const MergeState &other);

  std::string serialize() const;
  // Throws TraceError on malformed bytes.
  static MergeState parse(std::string_view bytes);

  // The final form: the distinct grammars' rules shared through one
  // Sequitur pass (rule_sharing.h). The state is left empty.
  MergedTrace finish();

  const std::vector<CstEntry> &cst() const { return cst_; }
  const std::vector<Grammar> &grammars() const { return grammars_; }
  const std::vector<RankRange> &rank_map() const { return rank_map_; }
  // Every rank's communicators (expanded: tests and tools only).
  std::vector<RankComms> comms() const { return comms_.expand(); }
  // Bytes held (containers' capacity and strings), an estimate.
  size_t memory_bytes() const;

  // Tests only: the grammar hash used from now on (nullptr: the default).
  // A constant hash makes every grammar collide, which must change nothing.
  static void use_grammar_hash_for_testing(uint64_t (*hash)(const Grammar &));

private:
  uint32_t intern_signature(const CstEntry &e);
  uint32_t intern_grammar(Grammar &&g);
  void add_ranges(const std::vector<RankRange> &ranges, const std::vector<uint32_t> &grammar_map);

  std::vector<CstEntry> cst_;
  std::unordered_map<std::string, uint32_t> cst_index_;
  std::vector<Grammar> grammars_;
  std::unordered_multimap<uint64_t, uint32_t> grammar_index_; // hash -> grammar
  std::vector<RankRange> rank_map_;                           // sorted by first rank
  CommTables comms_;
};

// A 64-bit hash of a grammar's rules and symbols.
uint64_t grammar_hash(const Grammar &g);

} // namespace pilgrim
