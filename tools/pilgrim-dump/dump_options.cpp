#include "dump_options.h"

#include <cerrno>
#include <cstdlib>
#include <string_view>

namespace pilgrim::dump {

namespace {

int64_t parse_rank(const std::string &text) {
  if (text.empty() || text[0] == '-' || text[0] == '+')
    throw UsageError{"--rank needs a non-negative integer, got '" + text + "'"};
  errno = 0;
  char *end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (errno || *end || v > 0xffffffffull)
    throw UsageError{"--rank needs a non-negative integer, got '" + text + "'"};
  return static_cast<int64_t>(v);
}

} // namespace

const char *usage_text() {
  return "Usage: pilgrim-dump [--rank R] [--grammar] [--stats] TRACE\n"
         "\n"
         "Prints a Pilgrim trace as text: a header block, then every call of every rank\n"
         "in order, one line per call, with all its arguments.\n"
         "\n"
         "Options:\n"
         "  --rank R     only rank R\n"
         "  --grammar    print each rank's call signature table and grammar rules\n"
         "               instead of the call listing\n"
         "  --stats      print per-function statistics (calls, bytes, durations)\n"
         "               instead of the call listing\n"
         "  --help       show this help and exit\n"
         "  --version    show the version and exit\n"
         "\n"
         "Exit status: 0 success, 1 unreadable or invalid trace, 2 usage error.\n"
         "The output format is described in docs/DUMP.md.\n";
}

DumpOptions parse_options(int argc, char **argv) {
  DumpOptions o;
  bool only_operands = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!only_operands && arg.size() > 1 && arg[0] == '-') {
      if (arg == "--") {
        only_operands = true;
      } else if (arg == "--help" || arg == "-h") {
        o.help = true;
      } else if (arg == "--version") {
        o.version = true;
      } else if (arg == "--grammar") {
        o.grammar = true;
      } else if (arg == "--stats") {
        o.stats = true;
      } else if (arg == "--rank") {
        if (i + 1 >= argc)
          throw UsageError{"--rank needs a value"};
        o.rank = parse_rank(argv[++i]);
      } else if (arg.rfind("--rank=", 0) == 0) {
        o.rank = parse_rank(arg.substr(7));
      } else {
        throw UsageError{"unknown option '" + arg + "'"};
      }
      continue;
    }
    if (!o.trace_path.empty())
      throw UsageError{"more than one trace given ('" + arg + "')"};
    o.trace_path = arg;
  }
  if (!o.help && !o.version && o.trace_path.empty())
    throw UsageError{"no trace file given"};
  return o;
}

} // namespace pilgrim::dump
