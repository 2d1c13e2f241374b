#include "pilgrim/merged_codec.h"

#include <algorithm>

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_walker.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

template <typename T> void reserve_bounded(std::vector<T> &v, uint64_t n, const ByteReader &r) {
  v.reserve(static_cast<size_t>(std::min<uint64_t>(n, r.remaining())));
}

void end_of(const ByteReader &r) {
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes");
}

uint32_t u32_of(ByteReader &r, const char *what) {
  const uint64_t v = r.varint();
  if (v > UINT32_MAX)
    r.fail(std::string(what) + " " + std::to_string(v) + " does not fit 32 bits");
  return static_cast<uint32_t>(v);
}

} // namespace

std::string encode_merged_cst(const std::vector<CstEntry> &cst) {
  std::string out;
  ByteWriter w(out);
  w.varint(cst.size());
  for (const CstEntry &e : cst)
    w.string(e.signature);
  return out;
}

std::vector<CstEntry> parse_merged_cst(std::string_view bytes) {
  ByteReader r(bytes);
  const uint64_t n = r.count(1, "CST entry count");
  std::vector<CstEntry> cst(static_cast<size_t>(n));
  for (CstEntry &e : cst)
    e.signature = std::string(r.string());
  end_of(r);
  return cst;
}

std::string encode_merged_grammar(const Grammar &rules, const std::vector<uint64_t> &roots) {
  std::string out;
  ByteWriter w(out);
  w.varint(rules.rules.size());
  for (const auto &body : rules.rules) {
    w.varint(body.size());
    for (const GrammarSymbol &s : body) {
      w.svarint(s.value);
      w.varint(s.exp);
    }
  }
  w.varint(roots.size());
  for (uint64_t root : roots)
    w.varint(root);
  return out;
}

void parse_merged_grammar(std::string_view bytes, Grammar &rules, std::vector<uint64_t> &roots) {
  ByteReader r(bytes);
  const uint64_t nrules = r.count(1, "rule count");
  rules.rules.clear();
  reserve_bounded(rules.rules, nrules, r);
  for (uint64_t i = 0; i < nrules; ++i) {
    const uint64_t nsyms = r.count(2, "rule length");
    std::vector<GrammarSymbol> body;
    body.reserve(static_cast<size_t>(nsyms));
    for (uint64_t k = 0; k < nsyms; ++k) {
      GrammarSymbol s;
      s.value = r.svarint();
      s.exp = r.varint();
      body.push_back(s);
    }
    rules.rules.push_back(std::move(body));
  }
  const uint64_t ngrammars = r.count(1, "grammar count");
  roots.clear();
  reserve_bounded(roots, ngrammars, r);
  for (uint64_t g = 0; g < ngrammars; ++g)
    roots.push_back(r.varint());
  end_of(r);
}

std::string encode_rank_map(const std::vector<RankRange> &map) {
  std::string out;
  ByteWriter w(out);
  w.varint(map.size());
  for (const RankRange &x : map) {
    w.varint(x.first);
    w.varint(x.count);
    w.varint(x.grammar);
  }
  return out;
}

std::vector<RankRange> parse_rank_map(std::string_view bytes) {
  ByteReader r(bytes);
  const uint64_t n = r.count(3, "rank range count");
  std::vector<RankRange> map;
  reserve_bounded(map, n, r);
  for (uint64_t i = 0; i < n; ++i) {
    RankRange x;
    x.first = u32_of(r, "first rank");
    x.count = u32_of(r, "rank count");
    x.grammar = u32_of(r, "grammar");
    map.push_back(x);
  }
  end_of(r);
  return map;
}

std::string encode_rank_comms(const std::vector<RankComms> &comms) {
  std::string out;
  ByteWriter w(out);
  w.varint(comms.size());
  for (const RankComms &rc : comms) {
    w.varint(rc.rank);
    w.varint(rc.comms.size());
    for (const CommInfo &c : rc.comms) {
      w.varint(c.comm_id);
      w.svarint(c.rank);
      w.svarint(c.size);
      w.svarint(c.remote_size);
    }
  }
  return out;
}

std::vector<RankComms> parse_rank_comms(std::string_view bytes) {
  ByteReader r(bytes);
  const uint64_t n = r.count(2, "rank count");
  std::vector<RankComms> out;
  reserve_bounded(out, n, r);
  for (uint64_t i = 0; i < n; ++i) {
    RankComms rc;
    rc.rank = u32_of(r, "rank");
    const uint64_t nc = r.count(4, "communicator count");
    rc.comms.reserve(static_cast<size_t>(nc));
    for (uint64_t k = 0; k < nc; ++k) {
      CommInfo c;
      c.comm_id = r.varint();
      c.rank = r.svarint32("communicator rank");
      c.size = r.svarint32("communicator size");
      c.remote_size = r.svarint32("communicator remote size");
      rc.comms.push_back(c);
    }
    out.push_back(std::move(rc));
  }
  end_of(r);
  return out;
}

void check_merged(const MergedTrace &m, uint32_t nranks) {
  validate_grammar(m.rules, m.cst.size());
  for (size_t g = 0; g < m.roots.size(); ++g)
    if (m.roots[g] >= m.rules.rules.size())
      throw TraceError("grammar " + std::to_string(g) + ": root rule " +
                       std::to_string(m.roots[g]) + " beyond the " +
                       std::to_string(m.rules.rules.size()) + " rules");
  uint64_t next = 0;
  for (size_t i = 0; i < m.rank_map.size(); ++i) {
    const RankRange &x = m.rank_map[i];
    const std::string where = "rank range " + std::to_string(i);
    if (x.first != next)
      throw TraceError(where + ": starts at rank " + std::to_string(x.first) + ", expected " +
                       std::to_string(next));
    if (x.count == 0)
      throw TraceError(where + ": empty");
    if (x.grammar >= m.roots.size())
      throw TraceError(where + ": grammar " + std::to_string(x.grammar) + " beyond the " +
                       std::to_string(m.roots.size()) + " grammars");
    next += x.count;
  }
  if (next != nranks)
    throw TraceError("the rank map covers " + std::to_string(next) + " ranks, META says " +
                     std::to_string(nranks));
  int64_t last = -1;
  for (const RankComms &rc : m.comms) {
    if (rc.rank >= nranks || static_cast<int64_t>(rc.rank) <= last)
      throw TraceError("communicators of rank " + std::to_string(rc.rank) +
                       ": rank out of range or out of order");
    last = rc.rank;
  }
}

void derive_counts(MergedTrace &m) {
  std::vector<uint64_t> ranks_of(m.roots.size(), 0);
  for (const RankRange &x : m.rank_map)
    if (x.grammar < ranks_of.size())
      ranks_of[x.grammar] += x.count;
  for (CstEntry &e : m.cst)
    e.count = 0;
  for (size_t g = 0; g < m.roots.size(); ++g) {
    if (ranks_of[g] == 0)
      continue;
    for (const auto &tc : terminal_counts(m.rules, m.roots[g])) {
      if (tc.first >= m.cst.size())
        continue;
      uint64_t n;
      if (__builtin_mul_overflow(tc.second, ranks_of[g], &n) ||
          __builtin_add_overflow(m.cst[tc.first].count, n, &m.cst[tc.first].count))
        m.cst[tc.first].count = UINT64_MAX;
    }
  }
}

} // namespace pilgrim
