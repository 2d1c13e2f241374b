// pilgrim-check TRACE: the matching check to run before a replay or an
// export (docs/CHECK.md). Matches every point-to-point message with the one
// matcher the exports share (tools/matching), then prints one line per
// finding: errors (unmatched sends and receives, tag, communicator and size
// mismatches, requests never completed, collectives whose ranks disagree)
// and warnings (handles never freed).
#include "comm_resolver.h"
#include "command_line.h"
#include "message_matching.h"
#include "pilgrim/count_text.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/reader.h"

#include <algorithm>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

namespace {

const pilgrim::cli::Help kHelp = {
    "pilgrim-check [--errors-only] [--messages] TRACE",
    "Matches every point-to-point message of TRACE and checks its collectives and\n"
    "requests (docs/CHECK.md). Prints one line per finding,\n"
    "  error: rank R call I: WHAT\n"
    "  warning: rank R call I: WHAT\n"
    "(I counts the rank's calls from 0, as pilgrim-dump numbers them), then a summary.",
    {{"--errors-only", "do not print warnings"},
     {"--messages", "also print every matched message, in order of its send:\n"
                    "message: rank R call I -> rank Q call J (tag T, COMM, N bytes)"}},
    "no errors (warnings allowed)",
    "errors found",
    "a trace that cannot be read",
    "pilgrim-check app.pilgrim",
    ""};

} // namespace

int main(int argc, char **argv) {
  std::string path;
  bool errors_only = false, messages = false;
  pilgrim::cli::CommandLine cl("pilgrim-check", kHelp, pilgrim::kFormatVersion);
  cl.flag({"--errors-only"}, errors_only)
      .flag({"--messages"}, messages)
      .operands({&path}, "a trace file to check", "only one trace can be checked");
  if (const auto done = cl.parse(argc, argv))
    return *done;
  pilgrim::MatchResult result;
  std::vector<std::string> comm_names;
  try {
    const pilgrim::reader::TraceFile trace(path);
    result = pilgrim::match_messages(trace);
    if (messages) {
      const pilgrim::CommDirectory comms(trace);
      for (const pilgrim::MatchedMessage &m : result.messages)
        comm_names.push_back(comms.name(m.comm));
    }
  } catch (const std::exception &e) {
    std::cerr << "pilgrim-check: " << e.what() << "\n";
    return pilgrim::cli::kTrouble;
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
  if (messages) {
    std::vector<size_t> order(result.messages.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      const pilgrim::CallPlace &x = result.messages[a].send, &y = result.messages[b].send;
      return std::tie(x.rank, x.index, a) < std::tie(y.rank, y.index, b);
    });
    for (size_t i : order) {
      const pilgrim::MatchedMessage &m = result.messages[i];
      std::cout << "message: rank " << m.send.rank << " call " << m.send.index << " -> rank "
                << m.recv.rank << " call " << m.recv.index << " (tag " << m.tag << ", "
                << comm_names[i] << ", "
                << (m.bytes < 0 ? std::string("? bytes")
                                : pilgrim::count_text(static_cast<uint64_t>(m.bytes), "byte"))
                << ")\n";
    }
  }
  std::cout << "pilgrim-check: " << path << ": " << pilgrim::count_text(errors, "error") << ", "
            << pilgrim::count_text(warnings, "warning") << ", "
            << pilgrim::count_text(result.messages.size(), "message") << " matched\n";
  return errors ? pilgrim::cli::kFinding : pilgrim::cli::kSuccess;
}
