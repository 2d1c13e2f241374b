// The byte forms shared by the RANK section, MERGED_GRAMMAR and the merge
// state that travels between ranks: a list of rules (docs/FORMAT.md §7,
// `varint(nrules) rule{nrules}`) and one communicator-table entry.
#pragma once

#include <vector>

#include "pilgrim/byte_io.h"
#include "pilgrim/grammar_model.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

void put_rules(ByteWriter &w, const std::vector<std::vector<GrammarSymbol>> &rules);
// `what` names the count in messages ("grammar rule count"). Checks counts
// against the remaining bytes only; validate_grammar checks references.
std::vector<std::vector<GrammarSymbol>> get_rules(ByteReader &r, const char *what);

// comm := varint(comm_id) svarint(rank) svarint(size) svarint(remote_size)
void put_comm(ByteWriter &w, const CommInfo &c);
CommInfo get_comm(ByteReader &r);

} // namespace pilgrim
