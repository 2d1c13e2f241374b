// pilgrim-diff: compares two Pilgrim traces call by call.
#include <cstdio>
#include <exception>
#include <string>

#include "call_times_diff.h"
#include "diff_options.h"
#include "order_diff.h"
#include "pilgrim/count_text.h"
#include "pilgrim/trace_error.h"
#include "pilgrim/trace_reader.h"
#include "trace_diff.h"

int main(int argc, char **argv) {
  using namespace pilgrim::diff;
  DiffOptions o;
  if (const auto status = command_line(o).parse(argc, argv))
    return *status;
  try {
    const pilgrim::Trace a = pilgrim::read_trace(o.a);
    const pilgrim::Trace b = pilgrim::read_trace(o.b);
    if (o.order) {
      OrderResult r;
      try {
        r = diff_orders(a, b);
      } catch (const pilgrim::TraceError &e) {
        pilgrim::rethrow_with_context(o.a + " or " + o.b, e);
      }
      if (!r.same) {
        std::printf("%s\n", r.text.c_str());
        return pilgrim::cli::kFinding;
      }
      std::printf("same order: %s, %s\n", pilgrim::count_text(a.nranks(), "rank").c_str(),
                  pilgrim::count_text(r.events, "matching event").c_str());
      return 0;
    }
    if (o.timing) {
      const std::string missing = call_times_missing(a, b, o.a, o.b);
      if (!missing.empty()) {
        std::fprintf(stderr, "pilgrim-diff: %s\n", missing.c_str());
        return pilgrim::cli::kTrouble;
      }
    }
    DiffSettings s;
    s.timing = o.mean_timing;
    s.tolerance = o.tolerance < 0 ? 0.25 : o.tolerance;
    s.relaxed = o.relaxed;
    s.strict = o.strict;
    DiffResult r;
    try {
      r = diff_traces(a, b, s);
    } catch (const pilgrim::TraceError &e) {
      pilgrim::rethrow_with_context(o.a + " or " + o.b, e);
    }
    TimeTolerance tolerance;
    if (r.identical && o.timing) {
      tolerance.relative = o.tolerance < 0 ? tolerance.relative : o.tolerance;
      tolerance.absolute = o.abs_tolerance;
      try {
        r = diff_call_times(a, b, tolerance);
      } catch (const pilgrim::TraceError &e) {
        pilgrim::rethrow_with_context(o.a + " or " + o.b, e);
      }
    }
    if (!r.identical) {
      std::printf("%s\n", r.message.c_str());
      return pilgrim::cli::kFinding;
    }
    std::printf("identical: %s, %s%s\n", pilgrim::count_text(a.nranks(), "rank").c_str(),
                pilgrim::count_text(r.calls, "call").c_str(),
                o.timing ? (", times within " + tolerance_text(tolerance)).c_str() : "");
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "pilgrim-diff: %s\n", e.what());
    return pilgrim::cli::kTrouble;
  }
}
