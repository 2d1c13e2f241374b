#include "trace_input.h"

#include "pilgrim/context_walk.h"
#include "pilgrim/count_text.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"

namespace pilgrim {

TraceInput read_trace_input(const std::string &path, int64_t rank) {
  TraceInput input;
  input.path = path;
  input.rank = rank < 0 ? -1 : rank;
  input.trace = read_trace(path);
  const uint32_t nranks = input.trace.nranks();
  if (rank >= 0 && static_cast<uint64_t>(rank) >= nranks)
    throw TraceError(path + ": rank " + std::to_string(rank) + " out of range (the trace has " +
                     count_text(nranks, "rank") + ")");
  input.first_rank = rank < 0 ? 0 : static_cast<uint32_t>(rank);
  input.end_rank = rank < 0 ? nranks : input.first_rank + 1;
  try {
    input.calls = decode_cst(input.trace);
  } catch (const TraceError &e) {
    rethrow_with_context(path, e);
  }
  return input;
}

void visit_call_uses(const TraceInput &input, uint32_t rank, const CallUseVisitor &visit) {
  // Each use in the context of its position: a root's rank in a communicator
  // depends on which creation of its id applies.
  const RankView view = input.trace.rank(rank);
  CreationTracker tracker = CreationTracker::for_rank(input.trace, rank, input.calls);
  walk_in_context(*view.rules, view.root, input.calls, tracker,
                  [&](uint64_t t, uint64_t times, const CallContext &ctx) {
                    visit(t, input.calls[t], times, ctx);
                  });
}

const TimingStats &signature_duration(const TraceInput &input, uint64_t signature) {
  return input.trace.merged.cst[signature].duration;
}

const TimingStats &signature_interval(const TraceInput &input, uint64_t signature) {
  return input.trace.merged.cst[signature].interval;
}

} // namespace pilgrim
