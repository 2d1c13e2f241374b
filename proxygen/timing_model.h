// The computation gap replayed before each call signature.
//
// A version-2 trace keeps, per signature and over all ranks that made it,
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
// The durations used are the mean durations, except where ranks waited for
// each other: the calls of a signature that several ranks make wait longest
// on the ranks that arrived first, and the wall time follows the rank that
// arrived last, whose call waited least. When the durations spread further
// below their mean (mean - min) than the intervals do (those of a rank that
// waits because its own work varies spread alike), the difference is that
// imbalance, and it is taken off the duration: every rank then replays the
// computation of the rank that arrived last.
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
