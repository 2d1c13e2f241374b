#include "diff_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::diff {

namespace {

const char kUsage[] =
    "Usage: pilgrim-diff [--timing [--tolerance X] [--abs-tolerance S] | --mean-timing\n"
    "                    [--tolerance X]] [--relaxed] [--strict] TRACE_A TRACE_B\n"
    "\n"
    "Compares two Pilgrim traces rank by rank and call by call: the function, every\n"
    "encoded argument (symbolic ids included) and the return code. Prints the first\n"
    "difference as one line, 'rank R call N: FUNCTION: PARAM differs: A vs B', or\n"
    "'identical: N ranks, M calls'.\n"
    "\n"
    "Options:\n"
    "  --timing         also compare every call's duration and the gap before it\n"
    "                   (from the end of the rank's previous call), call by call;\n"
    "                   both traces need a per-call timing mode (PILGRIM_TIMING=\n"
    "                   lossless, hist:0.1,8, ...) and the same calls; prints the\n"
    "                   first call beyond the tolerance\n"
    "  --tolerance X    relative tolerance: a time within X of TRACE_A's is equal\n"
    "                   (default 0.1 = 10% with --timing, 0.25 with --mean-timing)\n"
    "  --abs-tolerance S  with --timing, a time within S seconds of TRACE_A's is\n"
    "                   equal too (default 0; 1e-6 forgives 1 us on short calls)\n"
    "  --mean-timing    also compare each call signature's mean duration\n"
    "                   (aggregate traces; other modes keep no such means)\n"
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

} // namespace

cli::CommandLine command_line(DiffOptions &o) {
  cli::CommandLine c("pilgrim-diff", kUsage, kFormatVersion);
  c.flag({"--timing"}, o.timing)
      .flag({"--mean-timing"}, o.mean_timing)
      .non_negative_number({"--tolerance"}, "a non-negative number (0.1 = 10%)", o.tolerance)
      .non_negative_number({"--abs-tolerance"}, "a non-negative number of seconds (1e-6 = 1 us)",
                           o.abs_tolerance)
      .flag({"--relaxed"}, o.relaxed)
      .flag({"--strict"}, o.strict)
      .operands({&o.a, &o.b}, "two trace files are needed", "more than two traces given");
  return c;
}

} // namespace pilgrim::diff
