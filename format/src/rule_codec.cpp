#include "pilgrim/rule_codec.h"

#include <algorithm>

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
