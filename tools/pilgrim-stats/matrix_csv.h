// The communication matrix as CSV (pilgrim-stats --matrix, docs/STATS.md):
//   kind,communicator,sender,receiver,messages,bytes
// one row per (sender, receiver) pair that exchanged something: the
// point-to-point total over all communicators ("all"), then per
// communicator, then the same for collectives. Ranks are world ranks.
#pragma once

#include "matrix_model.h"
#include "text_output.h"

namespace pilgrim::stats {

void print_matrix_csv(TextOutput &out, const CommunicationMatrix &m);

// What the matrix left out (unknown receivers, unknown sizes, collectives
// without a pattern), one line each, for stderr; empty when nothing.
std::string matrix_notes(const CommunicationMatrix &m);

} // namespace pilgrim::stats
