// pilgrim-dump: prints a Pilgrim trace as text (docs/DUMP.md).
#include <cstdio>
#include <exception>
#include <string>

#include "call_listing.h"
#include "dump_options.h"
#include "grammar_listing.h"
#include "header_block.h"
#include "pilgrim/count_text.h"
#include "pilgrim/rank_calls.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "stats_report.h"
#include "text_output.h"

namespace {

int run(const pilgrim::dump::DumpOptions &o) {
  using namespace pilgrim;
  using namespace pilgrim::dump;
  const Trace trace = read_trace(o.trace_path);
  if (o.rank >= 0 && static_cast<uint64_t>(o.rank) >= trace.nranks())
    throw TraceError(o.trace_path + ": rank " + std::to_string(o.rank) +
                     " out of range (the trace has " + count_text(trace.nranks(), "rank") + ")");
  const uint32_t first = o.rank < 0 ? 0 : static_cast<uint32_t>(o.rank);
  const uint32_t last = o.rank < 0 ? trace.nranks() : first + 1;

  // Decode every signature before printing anything, so a bad one gives an
  // error and no partial listing.
  std::vector<DecodedCall> calls;
  try {
    calls = decode_cst(trace);
  } catch (const TraceError &e) {
    rethrow_with_context(o.trace_path, e);
  }

  TextOutput out(stdout);
  print_header_block(out, o.trace_path, trace);
  if (o.grammar) {
    print_merge_summary(out, trace);
    for (uint32_t r = first; r < last; ++r)
      print_grammar(out, trace, calls, r);
  }
  if (o.stats)
    print_stats(out, trace, calls, o.rank);
  if (!o.grammar && !o.stats)
    for (uint32_t r = first; r < last; ++r)
      print_calls(out, trace, calls, r);
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
    return 1;
  }
}
