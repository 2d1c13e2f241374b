// The computation gap replayed before each call signature.
//
// A version-2 trace keeps, per signature and over all ranks, the mean
// duration of the call and the mean interval between the starts of two
// consecutive calls with that signature on a rank (runtime/recorder.cpp).
// Between two such starts a rank makes k calls on average (k = calls of the
// ranks that use the signature / its count), so one call slot around the
// signature lasts interval / k, and the gap before it is that slot minus the
// mean duration of a repeated call (signatures with an interval, so that
// MPI_Init's long duration does not count):
// gap = max(0, interval.mean / k - mean duration).
// A signature made once per rank has no interval: no gap.
#pragma once

#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim::proxygen {

// Seconds of computation to replay before each CST entry (index = terminal).
std::vector<double> estimate_gaps(const Trace &trace);

} // namespace pilgrim::proxygen
