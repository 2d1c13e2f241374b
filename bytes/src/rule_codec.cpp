#include "pilgrim/rule_codec.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace pilgrim {

void put_rules(ByteWriter &w, const std::vector<std::vector<GrammarSymbol>> &rules) {
  w.varint(rules.size());
  for (const auto &body : rules) {
    w.varint(body.size());
    for (const GrammarSymbol &s : body) {
      w.svarint(s.value);
      w.varint(s.exp);
    }
  }
}

std::vector<std::vector<GrammarSymbol>> get_rules(ByteReader &r, const char *what) {
  const uint64_t nrules = r.count(1, what);
  std::vector<std::vector<GrammarSymbol>> rules;
  rules.reserve(static_cast<size_t>(std::min<uint64_t>(nrules, r.remaining())));
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
    rules.push_back(std::move(body));
  }
  return rules;
}

void put_timing(ByteWriter &w, const TimingStats &t, uint64_t count) {
  if (t.n == 0) {
    w.varint(0);
    return;
  }
  w.varint(t.n == count ? 1 : (t.n > UINT64_MAX - 2 ? UINT64_MAX : t.n + 2));
  w.f64le(t.mean);
  w.f64le(t.m2);
  w.f64le(t.min);
  w.f64le(t.max);
}

TimingStats get_timing(ByteReader &r, uint64_t count) {
  TimingStats t;
  const uint64_t k = r.varint();
  if (k == 0)
    return t;
  t.n = k == 1 ? count : k - 2;
  t.mean = r.f64le();
  t.m2 = r.f64le();
  t.min = r.f64le();
  t.max = r.f64le();
  return t;
}

void put_rank_ranges(ByteWriter &w, const std::vector<RankRange> &ranges) {
  w.varint(ranges.size());
  for (const RankRange &x : ranges) {
    w.varint(x.first);
    w.varint(x.count);
    w.varint(x.grammar);
  }
}

std::vector<RankRange> get_rank_ranges(ByteReader &r, uint64_t nvalues, const char *what) {
  const uint64_t n = r.count(3, what);
  std::vector<RankRange> out;
  uint64_t next = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t first = r.varint(), count = r.varint(), value = r.varint();
    if (first < next || count == 0 || first + count > uint64_t{UINT32_MAX} + 1 || value >= nvalues)
      r.fail(std::string("bad ") + what + " entry " + std::to_string(i));
    next = first + count;
    out.push_back(RankRange{static_cast<uint32_t>(first), static_cast<uint32_t>(count),
                            static_cast<uint32_t>(value)});
  }
  return out;
}

void put_comm(ByteWriter &w, const CommInfo &c) {
  w.varint(c.comm_id);
  w.svarint(c.rank);
  w.svarint(c.size);
  w.svarint(c.remote_size);
}

CommInfo get_comm(ByteReader &r) {
  CommInfo c;
  c.comm_id = r.varint();
  c.rank = r.svarint32("communicator rank");
  c.size = r.svarint32("communicator size");
  c.remote_size = r.svarint32("communicator remote size");
  return c;
}

} // namespace pilgrim
