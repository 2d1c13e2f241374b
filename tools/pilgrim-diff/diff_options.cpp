#include "diff_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace pilgrim::diff {

namespace {

double parse_tolerance(const std::string &text) {
  errno = 0;
  char *end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || errno || *end || !std::isfinite(v) || v < 0)
    throw UsageError{"--tolerance needs a non-negative number (0.1 = 10%), got '" + text + "'"};
  return v;
}

} // namespace

const char *usage_text() {
  return "Usage: pilgrim-diff [--timing [--tolerance X]] [--relaxed] [--strict] TRACE_A TRACE_B\n"
         "\n"
         "Compares two Pilgrim traces rank by rank and call by call: the function, every\n"
         "encoded argument (symbolic ids included) and the return code. Prints the first\n"
         "difference as one line, 'rank R call N: FUNCTION: PARAM differs: A vs B', or\n"
         "'identical: N ranks, M calls'.\n"
         "\n"
         "Options:\n"
         "  --timing         also compare each call signature's mean duration\n"
         "  --tolerance X    relative tolerance of --timing (default 0.25 = 25%)\n"
         "  --relaxed        for non-deterministic programs: skip polls that found\n"
         "                   nothing (MPI_Test/Testany/Testall/Iprobe/Improbe/\n"
         "                   Win_test/Request_get_status with flag 0, MPI_Testsome\n"
         "                   with outcount 0), so completion loops\n"
         "                   of different lengths compare equal, and let an\n"
         "                   MPI_ANY_SOURCE rank of TRACE_A match any rank of TRACE_B;\n"
         "                   the status of a receive or probe with MPI_ANY_SOURCE or\n"
         "                   MPI_ANY_TAG (or of the completion of its request) may\n"
         "                   name another source, tag and count;\n"
         "                   MPI_Waitany/Testany compare only their count, and\n"
         "                   MPI_Waitsome/Testsome calls are skipped; two non-zero return\n"
         "                   codes are equal and MPI_Error_string texts are not compared\n"
         "                   (MPICH's differ from run to run)\n"
         "  --strict         also compare the values a call gets from the environment,\n"
         "                   which a proxy cannot reproduce (the host's name, the MPI\n"
         "                   library's version text and handle values, MPI_INFO_ENV and\n"
         "                   the hints of infos MPI returns, the base of zero-size\n"
         "                   memory, file paths, the order of MPI_Dist_graph_create's\n"
         "                   neighbors, MPICH error codes' ring entry; the list is in\n"
         "                   tools/pilgrim-diff/README.md)\n"
         "  --help           show this help and exit\n"
         "  --version        show the version and exit\n"
         "\n"
         "Exit status: 0 identical, 1 different, 2 usage error or unreadable trace.\n";
}

DiffOptions parse_options(int argc, char **argv) {
  DiffOptions o;
  bool only_operands = false;
  int operands = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (!only_operands && arg.size() > 1 && arg[0] == '-') {
      if (arg == "--") {
        only_operands = true;
      } else if (arg == "--help" || arg == "-h") {
        o.help = true;
      } else if (arg == "--version") {
        o.version = true;
      } else if (arg == "--timing") {
        o.timing = true;
      } else if (arg == "--relaxed") {
        o.relaxed = true;
      } else if (arg == "--strict") {
        o.strict = true;
      } else if (arg == "--tolerance") {
        if (i + 1 >= argc)
          throw UsageError{"--tolerance needs a value"};
        o.tolerance = parse_tolerance(argv[++i]);
      } else if (arg.rfind("--tolerance=", 0) == 0) {
        o.tolerance = parse_tolerance(arg.substr(12));
      } else {
        throw UsageError{"unknown option '" + arg + "'"};
      }
      continue;
    }
    if (operands == 0)
      o.a = arg;
    else if (operands == 1)
      o.b = arg;
    else
      throw UsageError{"more than two traces given ('" + arg + "')"};
    ++operands;
  }
  if (!o.help && !o.version && operands != 2)
    throw UsageError{"two trace files are needed"};
  return o;
}

} // namespace pilgrim::diff
