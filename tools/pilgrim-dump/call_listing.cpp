#include "call_listing.h"

#include "pilgrim/call_formatter.h"
#include "pilgrim/call_sites.h"
#include "pilgrim/duration_text.h"
#include "pilgrim/rank_calls.h"

#include <cstdio>

namespace pilgrim::dump {

std::string call_text(const Call &call) {
  std::string s = format_call(call);
  if (call.thread != 0)
    s = "[thread " + std::to_string(call.thread) + "] " + s;
  return s;
}

std::string call_time_text(const CallTime &t) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "[%.9f s to %.9f s]", t.start, t.end);
  return buf;
}

std::string clock_text(const RankClock &c) {
  const char *source = c.source == static_cast<uint8_t>(ClockSource::Tsc)         ? "tsc"
                       : c.source == static_cast<uint8_t>(ClockSource::Monotonic) ? "monotonic"
                                                                                  : "unknown";
  return std::string(source) + ", resolution " + duration_text(c.resolution_ns * 1e-9) +
         " (rank 0)";
}

void print_calls(TextOutput &out, const Trace &trace, const std::vector<DecodedCall> &calls,
                 uint32_t rank, const std::vector<CallTime> *times, bool sites) {
  RankCalls walk(trace, calls, rank);
  std::vector<std::string> texts(calls.size());
  std::vector<uint64_t> made_in(calls.size(), 0); // meaning_version() + 1; 0: none
  const std::string prefix = "rank " + std::to_string(rank) + " call ";
  while (walk.advance()) {
    const uint64_t t = walk.terminal();
    if (made_in[t] != walk.meaning_version() + 1) {
      texts[t] = call_text(walk.call());
      if (const CallSite *site = sites ? call_site(trace, t) : nullptr)
        texts[t] += " at " + site_text(*site);
      made_in[t] = walk.meaning_version() + 1;
    }
    out << prefix << std::to_string(walk.index());
    if (times && walk.index() < times->size())
      out << ' ' << call_time_text((*times)[walk.index()]);
    out << ": " << texts[t] << '\n';
  }
}

} // namespace pilgrim::dump
