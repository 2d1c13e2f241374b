// pilgrim-export: a trace in the formats other tools read. --otf2 DIR writes
// an OTF2 archive (Vampir, simulators), --chrome FILE trace-event JSON (the
// Perfetto UI, chrome://tracing). docs/EXPORT.md describes both.
#include "chrome_export.h"
#include "command_line.h"
#include "export_options.h"
#include "otf2_export.h"
#include "pilgrim/file_layout.h"
#include "pilgrim/trace_error.h"

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

const pilgrim::cli::Help kHelp = {
    "pilgrim-export --otf2 DIR TRACE\n"
    "  or:  pilgrim-export --chrome FILE [--ranks LIST] [--time FROM:TO] TRACE",
    "Writes TRACE in a format other tools read. Both may be asked at once, without\n"
    "--ranks and --time, which only the Chrome JSON has.",
    {{"--otf2 DIR", "an OTF2 archive in DIR (DIR/traces.otf2 and its files), for Vampir and "
                    "simulators that replay OTF2"},
     {"--chrome FILE", "trace-event JSON for the Perfetto UI and chrome://tracing (- for "
                       "standard output)"},
     {"--ranks LIST", "only these ranks, e.g. 0-3,8 (--chrome)"},
     {"--time FROM:TO", "only the calls overlapping this window, in seconds of the aligned "
                        "timeline (--chrome)"}},
    "the export was written",
    "",
    "a trace that cannot be read, an output that cannot be written, or --ranks naming a rank "
    "the trace lacks",
    "pilgrim-export --chrome app.json app.pilgrim   # open it in https://ui.perfetto.dev\n"
    "pilgrim-export --otf2 app-otf2 app.pilgrim",
    "The formats are described in docs/EXPORT.md."};

using pilgrim::cli::UsageError;

// "0-3,8" -> 0 1 2 3 8.
std::vector<uint32_t> parse_ranks(const std::string &text) {
  std::vector<uint32_t> ranks;
  size_t at = 0;
  auto number = [&](size_t &i) {
    size_t j = i;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9')
      ++j;
    if (j == i || j - i > 9)
      throw UsageError{"--ranks needs a list like 0-3,8, got '" + text + "'"};
    const uint32_t v = static_cast<uint32_t>(std::stoul(text.substr(i, j - i)));
    i = j;
    return v;
  };
  while (at < text.size()) {
    const uint32_t from = number(at);
    uint32_t to = from;
    if (at < text.size() && text[at] == '-') {
      ++at;
      to = number(at);
    }
    if (to < from || to - from > 1u << 24)
      throw UsageError{"--ranks needs a list like 0-3,8, got '" + text + "'"};
    for (uint32_t r = from; r <= to; ++r)
      ranks.push_back(r);
    if (at < text.size() && text[at++] != ',')
      throw UsageError{"--ranks needs a list like 0-3,8, got '" + text + "'"};
  }
  if (ranks.empty())
    throw UsageError{"--ranks needs a list like 0-3,8, got '" + text + "'"};
  return ranks;
}

} // namespace

int main(int argc, char **argv) {
  using namespace pilgrim::exporter;
  ExportOptions o;
  pilgrim::cli::CommandLine cl("pilgrim-export", kHelp, pilgrim::kFormatVersion);
  cl.text({"--otf2"}, "a directory", o.otf2_dir)
      .text({"--chrome"}, "a file", o.chrome)
      .value({"--ranks"}, "a list like 0-3,8",
             [&](const std::string &v) { o.ranks = parse_ranks(v); })
      .value({"--time"}, "FROM:TO in seconds",
             [&](const std::string &v) {
               const size_t colon = v.find(':');
               char *end = nullptr;
               const std::string a = v.substr(0, colon);
               const std::string b = colon == std::string::npos ? "" : v.substr(colon + 1);
               o.time_from = std::strtod(a.c_str(), &end);
               const bool ok_a = !a.empty() && *end == '\0';
               o.time_to = std::strtod(b.c_str(), &end);
               if (!ok_a || b.empty() || *end != '\0' || !(o.time_to > o.time_from))
                 throw UsageError{"--time needs FROM:TO in seconds with FROM < TO, got '" + v +
                                  "'"};
               o.has_time = true;
             })
      .operands({&o.trace}, "a trace file to export", "only one trace can be exported")
      // The OTF2 archive has every rank and the whole run.
      .conflicts("--otf2", {"--ranks", "--time"})
      .needs("--ranks", {"--chrome"})
      .needs("--time", {"--chrome"});
  if (const auto done = cl.parse(argc, argv))
    return *done;
  if (o.otf2_dir.empty() && o.chrome.empty())
    return cl.fail("say what to write: --otf2 DIR or --chrome FILE");
  try {
    const pilgrim::reader::TraceFile trace(o.trace);
    for (uint32_t r : o.ranks)
      if (r >= trace.nranks()) {
        std::cerr << "pilgrim-export: " << o.trace << ": --ranks names rank " << r
                  << ", but the trace has " << trace.nranks() << " ranks\n";
        return pilgrim::cli::kTrouble;
      }
    std::string error;
    if (!o.otf2_dir.empty() && !write_otf2(trace, o, error)) {
      std::cerr << "pilgrim-export: " << error << "\n";
      return pilgrim::cli::kTrouble;
    }
    if (!o.chrome.empty() && !write_chrome(trace, o, error)) {
      std::cerr << "pilgrim-export: " << error << "\n";
      return pilgrim::cli::kTrouble;
    }
  } catch (const std::exception &e) {
    std::cerr << "pilgrim-export: " << e.what() << "\n";
    return pilgrim::cli::kTrouble;
  }
  return 0;
}
