#include "pilgrim/rank_calls.h"

#include <string>

#include "pilgrim/trace_error.h"

namespace pilgrim {

std::vector<DecodedCall> decode_cst(const Trace &trace) {
  std::vector<DecodedCall> calls;
  calls.reserve(trace.merged.cst.size());
  for (size_t i = 0; i < trace.merged.cst.size(); ++i) {
    try {
      calls.push_back(decode_signature(trace, trace.merged.cst[i].signature));
    } catch (const TraceError &e) {
      rethrow_with_context("CST entry " + std::to_string(i), e);
    }
  }
  return calls;
}

RankCalls::RankCalls(const Trace &trace, const std::vector<DecodedCall> &cst, uint32_t rank)
    : view_(trace.rank(rank)), walker_(*view_.rules, view_.root), cst_(cst),
      tracker_(CreationTracker::for_rank(trace, rank, cst)), resolved_(cst.size()),
      resolved_in_(cst.size(), {0, 0}) {}

bool RankCalls::advance() {
  if (started_)
    tracker_.apply(cst_[terminal_]);
  started_ = true;
  uint64_t t = 0;
  while (walker_.next(t)) {
    if (t < cst_.size()) { // the reader validated terminals; never index past the CST
      terminal_ = t;
      ++index_;
      return true;
    }
  }
  started_ = false;
  return false;
}

const Call &RankCalls::call() {
  const std::pair<uint64_t, uint64_t> now{tracker_.version() + 1, tracker_.creations()};
  if (resolved_in_[terminal_] != now) {
    resolve_call_into(resolved_[terminal_], cst_[terminal_], tracker_.context());
    resolved_in_[terminal_] = now;
  }
  return resolved_[terminal_];
}

} // namespace pilgrim
