// How pilgrim-dump and pilgrim-stats read a trace, and how pilgrim-stats's
// reports visit its calls: the one file of the reports that calls the trace
// model's reading API (read_trace, decode_cst, Trace::rank,
// CreationTracker::for_rank, walk_in_context, the merged CST's timing), so that moving the reports
// onto libpilgrim-reader changes this file only.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pilgrim/call_context.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/timing_stats.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

struct TraceInput {
  std::string path;
  Trace trace;
  std::vector<DecodedCall> calls; // CST entry -> its decoded call
  int64_t rank = -1;              // the rank selected; -1: every rank
  uint32_t first_rank = 0;        // the selected ranks: [first_rank, end_rank)
  uint32_t end_rank = 0;
};

// Reads the trace at path and decodes every signature, so that a bad one gives
// an error before any output. rank < 0 selects every rank; a rank the trace
// does not have is an error. Throws TraceError ("PATH: ...").
TraceInput read_trace_input(const std::string &path, int64_t rank);

// The calls of one rank, as uses of CST entries: visit(signature, call, times,
// ctx) stands for `times` calls of CST entry `signature`, each made in context
// ctx; the visits cover every call of the rank once (context_walk.h).
using CallUseVisitor = std::function<void(uint64_t signature, const DecodedCall &call,
                                          uint64_t times, const CallContext &ctx)>;
void visit_call_uses(const TraceInput &input, uint32_t rank, const CallUseVisitor &visit);

// Timing of CST entry `signature`, over every rank that made it: the duration
// (time inside the call) and the interval (from the start of the same rank's
// previous call with the same signature).
const TimingStats &signature_duration(const TraceInput &input, uint64_t signature);
const TimingStats &signature_interval(const TraceInput &input, uint64_t signature);

} // namespace pilgrim
