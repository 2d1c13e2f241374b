#include "call_listing.h"

#include "pilgrim/call_formatter.h"
#include "pilgrim/grammar_walker.h"

namespace pilgrim::dump {

std::string call_text(const DecodedCall &call, const CallContext &ctx) {
  std::string s = format_call(call, ctx);
  if (call.thread_id != 0)
    s = "[thread " + std::to_string(call.thread_id) + "] " + s;
  return s;
}

RankCallTexts::RankCallTexts(const Trace &trace, const std::vector<DecodedCall> &calls,
                             uint32_t rank)
    : calls_(calls), tracker_(CreationTracker::for_rank(trace, rank, calls)), texts_(calls.size()),
      made_in_(calls.size(), 0) {}

const std::string &RankCallTexts::next(uint64_t t) {
  if (made_in_[t] != tracker_.version() + 1) {
    texts_[t] = call_text(calls_[t], tracker_.context());
    made_in_[t] = tracker_.version() + 1;
  }
  tracker_.apply(calls_[t]);
  return texts_[t];
}

void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank) {
  RankCallTexts texts(trace, calls, rank);
  const RankView v = trace.rank(rank);
  const std::string prefix = "rank " + std::to_string(rank) + " call ";
  GrammarWalker walker(*v.rules, v.root);
  uint64_t terminal = 0;
  uint64_t n = 0;
  while (walker.next(terminal))
    out << prefix << std::to_string(n++) << ": " << texts.next(terminal) << '\n';
}

} // namespace pilgrim::dump
