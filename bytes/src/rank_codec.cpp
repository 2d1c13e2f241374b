#include "pilgrim/rank_codec.h"

#include <algorithm>

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_checks.h"
#include "pilgrim/rule_codec.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

template <typename T> void reserve_bounded(std::vector<T> &v, uint64_t n, const ByteReader &r) {
  v.reserve(static_cast<size_t>(std::min<uint64_t>(n, r.remaining())));
}

} // namespace

std::string serialize_rank(const RankTrace &rank) {
  std::string out;
  size_t estimate = 16;
  for (const CstEntry &e : rank.cst)
    estimate += e.signature.size() + 8;
  out.reserve(estimate);
  ByteWriter w(out);
  w.varint(rank.cst.size());
  for (const CstEntry &e : rank.cst)
    w.string(e.signature);
  for (const CstEntry &e : rank.cst)
    w.varint(e.count);
  for (const CstEntry &e : rank.cst)
    put_timing(w, e.duration, e.count);
  for (const CstEntry &e : rank.cst)
    put_timing(w, e.interval, e.count);
  put_rules(w, rank.grammar.rules);
  w.varint(rank.comms.size());
  for (const CommInfo &c : rank.comms)
    put_comm(w, c);
  return out;
}

RankTrace parse_rank(std::string_view bytes) {
  ByteReader r(bytes);
  RankTrace rank;
  // An entry takes at least 4 bytes: signature length, count, two timings.
  const uint64_t ncst = r.count(4, "CST entry count");
  rank.cst.resize(static_cast<size_t>(ncst));
  for (CstEntry &e : rank.cst)
    e.signature = std::string(r.string());
  for (CstEntry &e : rank.cst)
    e.count = r.varint();
  for (CstEntry &e : rank.cst)
    e.duration = get_timing(r, e.count);
  for (CstEntry &e : rank.cst)
    e.interval = get_timing(r, e.count);

  rank.grammar.rules = get_rules(r, "grammar rule count");

  const uint64_t ncomms = r.count(4, "communicator count");
  reserve_bounded(rank.comms, ncomms, r);
  for (uint64_t i = 0; i < ncomms; ++i)
    rank.comms.push_back(get_comm(r));
  if (!r.at_end())
    r.fail(std::to_string(r.remaining()) + " trailing bytes");
  validate_grammar(rank.grammar, rank.cst.size());
  return rank;
}

} // namespace pilgrim
