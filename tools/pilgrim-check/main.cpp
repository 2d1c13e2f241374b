// pilgrim-check TRACE: the matching check to run before a replay or an
// export (docs/CHECK.md). Matches every point-to-point message with the one
// matcher the exports share (tools/matching), then prints one line per
// finding: errors (unmatched sends and receives, tag, communicator and size
// mismatches, requests never completed, collectives whose ranks disagree)
// and warnings (handles never freed).
#include "command_line.h"
#include "message_matching.h"
#include "pilgrim/count_text.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/reader.h"

#include <iostream>
#include <string>

namespace {

const char kUsage[] =
    "usage: pilgrim-check [options] TRACE\n"
    "Matches every point-to-point message of TRACE and checks its collectives and\n"
    "requests (docs/CHECK.md). Prints one line per finding,\n"
    "  error: rank R call I: WHAT\n"
    "  warning: rank R call I: WHAT\n"
    "(I counts the rank's calls from 0, as pilgrim-dump numbers them), then a summary.\n"
    "Exit 0 without errors (warnings allowed), 1 with errors, 2 on a usage error or\n"
    "a trace it cannot read.\n"
    "\n"
    "Options:\n"
    "  --errors-only   do not print warnings\n"
    "  --help          show this help and exit\n"
    "  --version       show the version and exit\n";

} // namespace

int main(int argc, char **argv) {
  std::string path;
  bool errors_only = false;
  pilgrim::cli::CommandLine cl("pilgrim-check", kUsage, pilgrim::kFormatVersion);
  cl.flag({"--errors-only"}, errors_only)
      .operands({&path}, "a trace file to check", "only one trace can be checked");
  if (const auto done = cl.parse(argc, argv))
    return *done;
  pilgrim::MatchResult result;
  try {
    const pilgrim::reader::TraceFile trace(path);
    result = pilgrim::match_messages(trace);
  } catch (const std::exception &e) {
    std::cerr << "pilgrim-check: " << e.what() << "\n";
    return 2;
  }
  uint64_t errors = 0, warnings = 0;
  for (const pilgrim::MatchFinding &f : result.findings) {
    const bool error = f.severity == pilgrim::MatchFinding::Severity::Error;
    (error ? errors : warnings)++;
    if (!error && errors_only)
      continue;
    std::cout << (error ? "error" : "warning") << ": rank " << f.where.rank << " call "
              << f.where.index << ": " << f.what << "\n";
  }
  std::cout << "pilgrim-check: " << path << ": " << pilgrim::count_text(errors, "error") << ", "
            << pilgrim::count_text(warnings, "warning") << ", "
            << pilgrim::count_text(result.messages.size(), "message") << " matched\n";
  return errors ? 1 : 0;
}
