// The computation before each call, from a per-call timing mode (issue 13):
// per grammar position, the gaps of every call that expands from it.
//
// A call's gap is the time from the end of the same rank's previous call to
// its start (model/call_times.h, aligned seconds), less the tracer's own cost
// between two calls (tracer_overhead). Each terminal occurrence in a rule
// body of the trace's rule pool is one position; all the calls that expand
// from it, on every rank that uses the rule, share its statistics, so the
// proxy's data follows the grammar, not the number of calls. A position the
// proxy replays no gap at (a record that is not an MPI call, a rank's first
// MPI_Init, the failed polls a completion loop replaces) hands its gap on to
// the next call that has one, so no computation is lost.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "pilgrim/call_times.h"
#include "pilgrim/grammar_model.h"
#include "pilgrim/trace_model.h"

namespace pilgrim::proxygen {

// Dense ids of grammar positions: symbol `index` of rule `rule` is
// first[rule] + index.
struct GrammarPositions {
  explicit GrammarPositions(const Grammar &rules);
  uint64_t of(uint64_t rule, size_t index) const { return first[rule] + index; }
  std::vector<uint64_t> first;
  uint64_t count = 0;
};

// A position's distribution as the proxy samples it: kGapPoints values at
// the quantiles 0, 1/8, ..., 1 (inverse CDF, linear in between), scaled so
// that its mean is the gaps' mean (the replayed total stays the recorded one).
constexpr int kGapPoints = 9;

struct SlotGaps {
  uint64_t n = 0;
  double mean = 0; // seconds
  std::array<double, kGapPoints> points{};
};

struct MeasuredGaps {
  std::vector<std::vector<SlotGaps>> classes; // per rank class, by the proxy's gap slot
  std::vector<uint32_t> class_of;             // per rank: its rank class
  std::vector<double> overhead;               // per rank: seconds taken off each gap
  std::vector<std::vector<double>> exact; // per rank, each replayed gap in call order (if asked)
};

// The tracer's cost between two calls on one rank, seconds: the smallest gap
// of the rank (two calls made back to back differ by that cost alone), at
// most kMaxTracerOverhead, so that a program whose calls are never back to
// back keeps its computation. 0 for fewer than two calls.
constexpr double kMaxTracerOverhead = 2e-6;
double tracer_overhead(const std::vector<CallTime> &times);

// `slot_of[position]`: the gap slot the proxy replays at that position, or
// -1 where it replays none. Throws TraceError when the trace has no per-call
// times or a rank's times do not decode.
MeasuredGaps measure_gaps(const Trace &trace, const GrammarPositions &positions,
                          const std::vector<int64_t> &slot_of, size_t slots, bool keep_exact);

// The companion file of --gaps=exact (docs in proxygen/README.md, "Gaps"):
// "PILGRIMGAPS1\n" (13 bytes, then 3 zero bytes), u64 fingerprint, u64
// ranks, u64 offsets[ranks + 1] (in gaps), f64 gaps; little-endian.
std::string exact_gaps_file(const MeasuredGaps &gaps, uint64_t fingerprint);

} // namespace pilgrim::proxygen
