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

const char kUsage[] =
    "usage: pilgrim-export (--otf2 DIR | --chrome FILE) [options] TRACE\n"
    "Writes TRACE in a format other tools read. Both may be asked at once.\n"
    "\n"
    "Options:\n"
    "  --otf2 DIR        an OTF2 archive in DIR (DIR/traces.otf2 and its files),\n"
    "                    for Vampir and simulators that replay OTF2\n"
    "  --chrome FILE     trace-event JSON for the Perfetto UI and chrome://tracing\n"
    "                    (- for standard output)\n"
    "  --ranks LIST      only these ranks, e.g. 0-3,8 (--chrome)\n"
    "  --time FROM:TO    only the calls overlapping this window, in seconds of\n"
    "                    the aligned timeline (--chrome)\n"
    "  --help            show this help and exit\n"
    "  --version         show the version and exit\n";

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
  pilgrim::cli::CommandLine cl("pilgrim-export", kUsage, pilgrim::kFormatVersion);
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
      .operands({&o.trace}, "a trace file to export", "only one trace can be exported");
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
        return 1;
      }
    std::string error;
    if (!o.otf2_dir.empty() && !write_otf2(trace, o, error)) {
      std::cerr << "pilgrim-export: " << error << "\n";
      return 1;
    }
    if (!o.chrome.empty() && !write_chrome(trace, o, error)) {
      std::cerr << "pilgrim-export: " << error << "\n";
      return 1;
    }
  } catch (const std::exception &e) {
    std::cerr << "pilgrim-export: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
