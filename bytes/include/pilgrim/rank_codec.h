// One rank's data (CST, grammar, communicators) as bytes: what each rank
// sends to rank 0 at MPI_Finalize and what a RANK section stores verbatim
// (docs/FORMAT.md, "RANK section").
#pragma once

#include <string>
#include <string_view>

#include "pilgrim/trace_model.h"

namespace pilgrim {

std::string serialize_rank(const RankTrace &rank);

// Parses and checks the structure (bounds, counts, grammar references and
// acyclicity); does not decode signatures. Throws TraceError.
RankTrace parse_rank(std::string_view bytes);

} // namespace pilgrim
