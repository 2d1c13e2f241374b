// The communication matrix computed on the compressed trace
// (docs/STATS.md, "Communication matrix"): each rank's calls are visited as
// uses of CST entries with the loops of its grammar multiplied out
// (TraceFile::visit_calls), so the cost follows the trace's size, not its
// number of calls. Ranks in a user communicator become world ranks through
// the communicator instance that applies at the call's position (a rank's
// creations along its walk select its COMMS entry, docs/FORMAT.md §7.7).
#pragma once

#include "matrix_model.h"
#include "trace_input.h"

namespace pilgrim::stats {

// The matrix of the messages sent by the selected ranks
// ([input.first_rank, input.end_rank)).
CommunicationMatrix communication_matrix(const TraceInput &input);

} // namespace pilgrim::stats
