#include "merge_state.h"

#include <algorithm>

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/rule_codec.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_error.h"
#include "rank_ranges.h"
#include "rule_sharing.h"

namespace pilgrim {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

uint64_t (*g_grammar_hash)(const Grammar &) = nullptr;

} // namespace

void MergeState::use_grammar_hash_for_testing(uint64_t (*hash)(const Grammar &)) {
  g_grammar_hash = hash;
}

uint64_t grammar_hash(const Grammar &g) {
  uint64_t h = mix(0, g.rules.size());
  for (const auto &body : g.rules) {
    h = mix(h, body.size());
    for (const GrammarSymbol &s : body)
      h = mix(mix(h, static_cast<uint64_t>(s.value)), s.exp);
  }
  return h;
}

MergeState MergeState::of_rank(uint32_t rank, RankTrace rt) {
  MergeState s;
  std::vector<uint32_t> map(rt.cst.size());
  for (size_t i = 0; i < rt.cst.size(); ++i)
    map[i] = s.intern_signature(rt.cst[i]);
  for (auto &body : rt.grammar.rules)
    for (GrammarSymbol &sym : body)
      if (is_terminal(sym))
        sym.value = map.at(static_cast<size_t>(sym.value));
  if (rt.grammar.rules.empty())
    rt.grammar.rules.emplace_back(); // no calls: an empty start rule
  const uint32_t g = s.intern_grammar(std::move(rt.grammar));
  s.rank_map_.push_back(RankRange{rank, 1, g});
  s.comms_.add_rank(rank, rt.comms);
  return s;
}

uint32_t MergeState::intern_signature(const CstEntry &e) {
  auto it = cst_index_.find(e.signature);
  if (it != cst_index_.end()) {
    CstEntry &mine = cst_[it->second];
    mine.count += e.count;
    merge_stats(mine.duration, e.duration);
    merge_stats(mine.interval, e.interval);
    return it->second;
  }
  const uint32_t index = static_cast<uint32_t>(cst_.size());
  cst_.push_back(e);
  cst_index_.emplace(e.signature, index);
  return index;
}

uint32_t MergeState::intern_grammar(Grammar &&g) {
  const uint64_t h = g_grammar_hash ? g_grammar_hash(g) : grammar_hash(g);
  auto range = grammar_index_.equal_range(h);
  for (auto it = range.first; it != range.second; ++it)
    if (grammars_[it->second].rules == g.rules) // the full comparison
      return it->second;
  const uint32_t index = static_cast<uint32_t>(grammars_.size());
  grammars_.push_back(std::move(g));
  grammar_index_.emplace(h, index);
  return index;
}

void MergeState::add_ranges(const std::vector<RankRange> &ranges,
                            const std::vector<uint32_t> &grammar_map) {
  add_rank_ranges(rank_map_, ranges, grammar_map);
}

void MergeState::absorb(const MergeState &other) {
  std::vector<uint32_t> terminal_map(other.cst_.size());
  for (size_t i = 0; i < other.cst_.size(); ++i)
    terminal_map[i] = intern_signature(other.cst_[i]);
  std::vector<uint32_t> grammar_map(other.grammars_.size());
  for (size_t g = 0; g < other.grammars_.size(); ++g) {
    Grammar copy = other.grammars_[g];
    for (auto &body : copy.rules)
      for (GrammarSymbol &sym : body)
        if (is_terminal(sym))
          sym.value = terminal_map.at(static_cast<size_t>(sym.value));
    grammar_map[g] = intern_grammar(std::move(copy));
  }
  add_ranges(other.rank_map_, grammar_map);
  comms_.absorb(other.comms_);
}

std::string MergeState::serialize() const {
  std::string out;
  ByteWriter w(out);
  w.varint(cst_.size());
  for (const CstEntry &e : cst_) {
    w.string(e.signature);
    w.varint(e.count);
    put_timing(w, e.duration, e.count);
    put_timing(w, e.interval, e.count);
  }
  w.varint(grammars_.size());
  for (const Grammar &g : grammars_)
    put_rules(w, g.rules);
  put_rank_ranges(w, rank_map_);
  comms_.serialize(w);
  return out;
}

MergeState MergeState::parse(std::string_view bytes) {
  ByteReader r(bytes);
  MergeState s;
  const uint64_t ncst = r.count(4, "CST entry count");
  s.cst_.reserve(static_cast<size_t>(ncst));
  for (uint64_t i = 0; i < ncst; ++i) {
    CstEntry e;
    e.signature = std::string(r.string());
    e.count = r.varint();
    e.duration = get_timing(r, e.count);
    e.interval = get_timing(r, e.count);
    if (!s.cst_index_.emplace(e.signature, static_cast<uint32_t>(s.cst_.size())).second)
      r.fail("signature " + std::to_string(i) + " appears twice");
    s.cst_.push_back(std::move(e));
  }
  const uint64_t ngrammars = r.count(1, "grammar count");
  for (uint64_t g = 0; g < ngrammars; ++g) {
    Grammar gr;
    gr.rules = get_rules(r, "rule count");
    validate_grammar(gr, s.cst_.size());
    if (gr.rules.empty())
      r.fail("grammar " + std::to_string(g) + " has no start rule");
    s.grammar_index_.emplace(g_grammar_hash ? g_grammar_hash(gr) : grammar_hash(gr),
                             static_cast<uint32_t>(s.grammars_.size()));
    s.grammars_.push_back(std::move(gr));
  }
  s.rank_map_ = get_rank_ranges(r, s.grammars_.size(), "rank range");
  s.comms_ = CommTables::parse(r);
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes");
  return s;
}

MergedTrace MergeState::finish() {
  MergedTrace m = share_rules(std::move(cst_), std::move(grammars_));
  m.rank_map = std::move(rank_map_);
  m.comms = comms_.expand(); // the writer stores them deduplicated again
  *this = MergeState();
  return m;
}

size_t MergeState::memory_bytes() const {
  size_t n = cst_.capacity() * sizeof(CstEntry) + grammars_.capacity() * sizeof(Grammar) +
             rank_map_.capacity() * sizeof(RankRange) + comms_.memory_bytes();
  for (const CstEntry &e : cst_)
    n += 2 * e.signature.capacity() + 48; // the entry's string and its index copy
  for (const Grammar &g : grammars_) {
    n += g.rules.capacity() * sizeof(g.rules[0]) + 32;
    for (const auto &body : g.rules)
      n += body.capacity() * sizeof(GrammarSymbol);
  }
  return n;
}

} // namespace pilgrim
