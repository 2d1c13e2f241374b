#include "pilgrim/merged_codec.h"

#include <algorithm>
#include <map>

#include "pilgrim/byte_io.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/grammar_checks.h"
#include "pilgrim/rank_sets.h"
#include "pilgrim/rule_codec.h"
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
  put_rules(w, rules.rules);
  w.varint(roots.size());
  for (uint64_t root : roots)
    w.varint(root);
  return out;
}

void parse_merged_grammar(std::string_view bytes, Grammar &rules, std::vector<uint64_t> &roots) {
  ByteReader r(bytes);
  rules.rules = get_rules(r, "rule count");
  const uint64_t ngrammars = r.count(1, "grammar count");
  roots.clear();
  reserve_bounded(roots, ngrammars, r);
  for (uint64_t g = 0; g < ngrammars; ++g)
    roots.push_back(r.varint());
  end_of(r);
}

namespace {

constexpr size_t kMaxRuns = size_t{1} << 24; // expanded rank runs a reader accepts

using Runs = std::vector<std::pair<uint32_t, uint32_t>>;

} // namespace

std::string encode_rank_map(const std::vector<RankRange> &map) {
  std::map<uint32_t, Runs> by_grammar;
  for (const RankRange &x : map)
    by_grammar[x.grammar].emplace_back(x.first, x.count);
  std::vector<std::pair<uint32_t, RankBox>> sets;
  for (auto &kv : by_grammar) {
    std::sort(kv.second.begin(), kv.second.end());
    for (RankBox &b : boxes_from_ranges(kv.second))
      sets.emplace_back(kv.first, std::move(b));
  }
  std::string out;
  ByteWriter w(out);
  w.varint(sets.size());
  for (const auto &set : sets) {
    w.varint(set.first);
    put_box(w, set.second);
  }
  return out;
}

std::vector<RankRange> parse_rank_map(std::string_view bytes, uint32_t nranks) {
  ByteReader r(bytes);
  const uint64_t n = r.count(3, "rank set count");
  std::vector<RankRange> map;
  Runs runs;
  for (uint64_t i = 0; i < n; ++i) {
    const uint32_t grammar = u32_of(r, "grammar");
    const RankBox box = get_box(r, nranks);
    runs.clear();
    try {
      append_runs(box, runs, kMaxRuns - std::min(kMaxRuns, map.size()));
    } catch (const TraceError &e) {
      r.fail(e.what());
    }
    for (const auto &run : runs)
      map.push_back(RankRange{run.first, run.second, grammar});
  }
  end_of(r);
  std::sort(map.begin(), map.end(),
            [](const RankRange &a, const RankRange &b) { return a.first < b.first; });
  std::vector<RankRange> merged;
  for (const RankRange &x : map) {
    if (!merged.empty() && merged.back().grammar == x.grammar &&
        static_cast<uint64_t>(merged.back().first) + merged.back().count == x.first)
      merged.back().count += x.count;
    else
      merged.push_back(x);
  }
  return merged;
}

std::string encode_rank_comms(const std::vector<RankComms> &comms, uint16_t version) {
  // Tables with ranks as offsets from the world rank: ranks whose tables
  // then agree (a dup or a Cart_create of MPI_COMM_WORLD: offset 0) share
  // one entry, with their ranks as boxes.
  std::map<std::string, Runs> groups;
  for (const RankComms &rc : comms) {
    std::string table;
    ByteWriter t(table);
    t.varint(rc.comms.size());
    for (const CommInfo &c : rc.comms) {
      t.varint(c.comm_id);
      t.svarint(static_cast<int64_t>(c.rank) - static_cast<int64_t>(rc.rank));
      t.svarint(c.size);
      t.svarint(c.remote_size);
      if (version >= kFirstMembershipVersion) {
        t.varint(c.group);
        t.varint(c.remote_group);
      }
    }
    Runs &runs = groups[table];
    if (!runs.empty() && static_cast<uint64_t>(runs.back().first) + runs.back().second == rc.rank)
      ++runs.back().second;
    else
      runs.emplace_back(rc.rank, 1);
  }
  std::string out;
  ByteWriter w(out);
  w.varint(groups.size());
  for (const auto &g : groups) {
    w.bytes(g.first);
    const std::vector<RankBox> boxes = boxes_from_ranges(g.second);
    w.varint(boxes.size());
    for (const RankBox &b : boxes)
      put_box(w, b);
  }
  return out;
}

std::vector<RankComms> parse_rank_comms(std::string_view bytes, uint32_t nranks, uint16_t version) {
  ByteReader r(bytes);
  const uint64_t ngroups = r.count(2, "communicator table count");
  std::vector<RankComms> out;
  Runs runs;
  size_t entries = 0;
  for (uint64_t g = 0; g < ngroups; ++g) {
    const uint64_t nc = r.count(4, "communicator count");
    std::vector<CommInfo> table;
    std::vector<int64_t> offsets;
    for (uint64_t k = 0; k < nc; ++k) {
      CommInfo c;
      c.comm_id = r.varint();
      offsets.push_back(r.svarint());
      c.size = r.svarint32("communicator size");
      c.remote_size = r.svarint32("communicator remote size");
      if (version >= kFirstMembershipVersion) {
        c.group = static_cast<uint32_t>(r.varint_max(UINT32_MAX, "communicator group"));
        c.remote_group =
            static_cast<uint32_t>(r.varint_max(UINT32_MAX, "communicator remote group"));
      }
      table.push_back(c);
    }
    const uint64_t nboxes = r.count(2, "rank set count");
    for (uint64_t b = 0; b < nboxes; ++b) {
      const RankBox box = get_box(r, nranks);
      runs.clear();
      try {
        append_runs(box, runs, kMaxRuns);
      } catch (const TraceError &e) {
        r.fail(e.what());
      }
      for (const auto &run : runs)
        for (uint32_t i = 0; i < run.second; ++i) {
          const uint32_t rank = run.first + i;
          entries += table.size() + 1;
          if (entries > kMaxRuns)
            r.fail("communicator tables expand to too many entries");
          RankComms rc;
          rc.rank = rank;
          rc.comms = table;
          for (size_t k = 0; k < table.size(); ++k) {
            const int64_t v = offsets[k] + rank;
            if (v < INT32_MIN || v > INT32_MAX)
              r.fail("communicator rank out of range");
            rc.comms[k].rank = static_cast<int32_t>(v);
          }
          out.push_back(std::move(rc));
        }
    }
  }
  end_of(r);
  std::sort(out.begin(), out.end(),
            [](const RankComms &a, const RankComms &b) { return a.rank < b.rank; });
  for (size_t i = 1; i < out.size(); ++i)
    if (out[i].rank == out[i - 1].rank)
      throw TraceError("rank " + std::to_string(out[i].rank) + " has two communicator tables");
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
