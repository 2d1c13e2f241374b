// pilgrim-dump: prints a Pilgrim trace as text (docs/DUMP.md).
#include <cstdio>
#include <exception>
#include <string>

#include "call_listing.h"
#include "comm_listing.h"
#include "default_report.h"
#include "dump_options.h"
#include "grammar_listing.h"
#include "header_block.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "text_output.h"
#include "trace_input.h"

namespace {

int run(const pilgrim::dump::DumpOptions &o) {
  using namespace pilgrim;
  using namespace pilgrim::dump;
  // Every signature is decoded before anything is printed, so a bad one
  // gives an error and no partial listing.
  const Trace trace = read_trace(o.trace_path);
  std::vector<DecodedCall> calls;
  try {
    calls = decode_cst(trace);
  } catch (const TraceError &e) {
    rethrow_with_context(o.trace_path, e);
  }
  const RankSelection ranks = select_ranks(o.trace_path, trace.nranks(), o.rank);
  const uint32_t first = ranks.first, last = ranks.end;

  // Per-call times likewise: a corrupt RANK_TIMING section is one error
  // line before anything is printed.
  std::vector<std::vector<CallTime>> times;
  const bool timed = has_call_times(trace) && !o.grammar && !o.stats && !o.comms;
  for (uint32_t r = first; timed && r < last; ++r) {
    times.emplace_back();
    std::string error;
    if (!read_call_times(trace, r, times.back(), error))
      throw TraceError(o.trace_path + ": " + error);
  }

  std::string clock; // not with --stats: pilgrim-stats's header has none, and it prints the same
  if (has_call_times(trace) && !o.stats) {
    RankClock c;
    bool present = false;
    std::string error;
    if (!read_rank_clock(trace, 0, c, present, error))
      throw TraceError(o.trace_path + ": " + error);
    clock = present ? clock_text(c) : "none (1 tick = 1 ns)";
  }

  TextOutput out(stdout);
  print_header_block(out, o.trace_path, trace.header, trace.functions.size(), clock);
  if (o.grammar) {
    print_merge_summary(out, trace);
    for (uint32_t r = first; r < last; ++r)
      print_grammar(out, trace, calls, r);
  }
  if (o.stats) // an alias of pilgrim-stats, which reads through libpilgrim-reader
    stats::print_default_report(out, read_trace_input(o.trace_path, o.rank));
  if (o.comms)
    print_comms(out, trace, o.rank);
  if (!o.grammar && !o.stats && !o.comms)
    for (uint32_t r = first; r < last; ++r)
      print_calls(out, trace, calls, r, timed ? &times[r - first] : nullptr, !o.no_sites);
  out.flush();
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  pilgrim::dump::DumpOptions options;
  if (const auto status = pilgrim::dump::command_line(options).parse(argc, argv))
    return *status;
  try {
    return run(options);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim-dump: %s\n", e.what());
    return pilgrim::cli::kTrouble;
  }
}
