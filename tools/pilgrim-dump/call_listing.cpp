#include "call_listing.h"

#include <utility>

#include "pilgrim/call_formatter.h"
#include "pilgrim/rank_calls.h"

namespace pilgrim::dump {

std::string call_text(const Call &call) {
  std::string s = format_call(call);
  if (call.thread != 0)
    s = "[thread " + std::to_string(call.thread) + "] " + s;
  return s;
}

void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank) {
  RankCalls walk(trace, calls, rank);
  std::vector<std::string> texts(calls.size());
  std::vector<std::pair<uint64_t, uint64_t>> made_in(calls.size(), {0, 0});
  const std::string prefix = "rank " + std::to_string(rank) + " call ";
  while (walk.advance()) {
    const Call &call = walk.call();
    const uint64_t t = walk.terminal();
    if (made_in[t] != walk.resolved_in()) {
      texts[t] = call_text(call);
      made_in[t] = walk.resolved_in();
    }
    out << prefix << std::to_string(walk.index()) << ": " << texts[t] << '\n';
  }
}

} // namespace pilgrim::dump
