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
      resolved_in_(cst.size(), {0, 0}), names_decoder_(rank) {}

bool RankCalls::advance() {
  if (started_)
    tracker_.apply(cst_[terminal_]);
  started_ = true;
  uint64_t t = 0;
  while (walker_.next(t)) {
    if (t < cst_.size()) { // the reader validated terminals; never index past the CST
      terminal_ = t;
      ++index_;
      if (is_posix_record(cst_[t].function_id)) {
        names_decoder_.decode_call(cst_[t], names_);
        names_decoded_ += names_.empty() ? 0 : 1;
      }
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
  Call &c = resolved_[terminal_];
  if (is_posix_record(c.function_id)) { // names_: its String elements in order
    size_t n = 0;
    for (CallArg &a : c.args)
      if (a.role() == Role::String)
        for (CallValue *v : {a.has_in ? &a.in : nullptr, a.has_out ? &a.out : nullptr})
          if (v)
            for (CallElement &e : v->elements)
              if (n < names_.size())
                e.text = names_[n++];
  }
  return c;
}

} // namespace pilgrim
