// The computation gap replayed before each call signature.
//
// A version-2 or version-3 trace keeps, per signature and over all ranks that made it,
// the duration of its calls and the interval between the starts of two
// consecutive calls on a rank (mean, sd, min, max; runtime/recorder.cpp).
// The intervals of a signature on a rank cover exactly the calls from just
// after its first call to its last call, and the grammar says which calls
// those are (signature_spans.h). So for signature s, over all ranks:
//   sum of its intervals = sum over the covered calls of (gap + duration),
// and the mean gap per covered call is
//   gap(s) = max(0, (interval.mean * interval.n - covered durations) / covered calls).
// This spreads the computation of a loop evenly over its calls, keeps each
// phase of a program to its own calls, and charges a rank's waiting (a long
// MPI_Recv of a master) to the call that waited, not to its computation.
//
// The durations taken off are the mean durations of signatures that one
// rank makes: their spread is that rank's own (a master's MPI_Recv waits as
// long as its worker computes, and its intervals vary alike). A signature
// that several ranks make mixes ranks that waited for each other (load
// imbalance, or a rank delayed by the system): its calls wait on the ranks
// that arrived first, while the wall time follows the one that arrived last,
// whose call waited least. For those the minimum duration, the call's own
// cost, is taken off: every rank then replays the computation of the rank
// that arrived last, and the replay keeps the traced run's wall time (a rank
// that replays more than it computed only waits less).
//
// Calls made once per rank have no interval, so no gap (the computation
// before a program's first repeated call and after its last is not
// replayed).
#pragma once

#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim::proxygen {

// Seconds of computation to replay before each CST entry (index = terminal).
std::vector<double> estimate_gaps(const Trace &trace);

} // namespace pilgrim::proxygen
