#include "diff_options.h"

#include "pilgrim/file_layout.h"

namespace pilgrim::diff {

namespace {

const cli::Help kHelp = {
    "pilgrim-diff [--mean-timing [--tolerance X]] [--relaxed] [--strict] TRACE_A TRACE_B\n"
    "  or:  pilgrim-diff --timing [--tolerance X] [--abs-tolerance S] [--strict] TRACE_A TRACE_B\n"
    "  or:  pilgrim-diff --order TRACE_A TRACE_B",
    "Compares two Pilgrim traces rank by rank and call by call: the function, every\n"
    "encoded argument (symbolic ids included) and the return code. Prints the first\n"
    "difference as one line, 'rank R call N: FUNCTION: PARAM differs: A vs B', or\n"
    "'identical: N ranks, M calls'.",
    {{"--timing", "also compare every call's duration and the gap before it (from the end of "
                  "the rank's previous call), call by call; both traces need a per-call timing "
                  "mode (PILGRIM_TIMING=lossless, hist:0.1,8, ...) and the same calls; prints "
                  "the first call beyond the tolerance"},
     {"--tolerance X", "relative tolerance: a time within X of TRACE_A's is equal (default 0.1 "
                       "= 10% with --timing, 0.25 with --mean-timing)"},
     {"--abs-tolerance S", "with --timing, a time within S seconds of TRACE_A's is equal too "
                           "(default 0; 1e-6 forgives 1 us on short calls)"},
     {"--mean-timing", "also compare each call signature's mean duration (aggregate traces; "
                       "other modes keep no such means)"},
     {"--relaxed", "for non-deterministic programs: skip polls that found nothing "
                   "(MPI_Test, Testany, Testall, Iprobe, Improbe, Win_test or Request_get_status with "
                   "flag 0, MPI_Testsome with outcount 0), so completion loops of different "
                   "lengths compare equal, and let an MPI_ANY_SOURCE rank of TRACE_A match any "
                   "rank of TRACE_B; the status of a receive or probe with MPI_ANY_SOURCE or "
                   "MPI_ANY_TAG (or of the completion of its request) may name another source, "
                   "tag and count; MPI_Waitany/Testany compare only their count, and "
                   "MPI_Waitsome/Testsome calls are skipped; two non-zero return codes are "
                   "equal and MPI_Error_string texts are not compared (MPICH's differ from run "
                   "to run)"},
     {"--order", "compare only the runs' order: on each rank, what its matching calls chose "
                 "(the sender and tag wildcard receives and probes matched, the requests "
                 "MPI_Waitany/some and MPI_Testany/some returned, whether polls succeeded), "
                 "event by event; prints, for each rank whose order parts, the first event that "
                 "differs with what each trace chose, or 'same order: N ranks, M matching "
                 "events' (docs/guide/replay.md)"},
     {"--strict", "also compare the values a call gets from the environment, which a proxy "
                  "cannot reproduce (the host's name, the MPI library's version text and handle "
                  "values, MPI_INFO_ENV and the hints of infos MPI returns, the base of "
                  "zero-size memory, file paths, the order of MPI_Dist_graph_create's "
                  "neighbors, MPICH error codes' ring entry; the list is in "
                  "tools/pilgrim-diff/README.md)"}},
    "the traces are identical",
    "the traces differ (the first difference is printed)",
    "a trace that cannot be read, or (--timing) a trace without per-call times",
    "pilgrim-diff app.pilgrim proxy.pilgrim\n"
    "pilgrim-diff --order run1.pilgrim run2.pilgrim\n"
    "pilgrim-diff --timing --tolerance 0.2 --abs-tolerance 1e-6 run1.pilgrim run2.pilgrim",
    ""};

} // namespace

cli::CommandLine command_line(DiffOptions &o) {
  cli::CommandLine c("pilgrim-diff", kHelp, kFormatVersion);
  c.flag({"--timing"}, o.timing)
      .flag({"--mean-timing"}, o.mean_timing)
      .non_negative_number({"--tolerance"}, "a non-negative number (0.1 = 10%)", o.tolerance)
      .non_negative_number({"--abs-tolerance"}, "a non-negative number of seconds (1e-6 = 1 us)",
                           o.abs_tolerance)
      .flag({"--relaxed"}, o.relaxed)
      .flag({"--strict"}, o.strict)
      .flag({"--order"}, o.order)
      .operands({&o.a, &o.b}, "two trace files are needed", "more than two traces given")
      // --timing compares call by call: not by signature means, nor with the
      // matching --relaxed allows. The tolerances are those of a timing mode.
      .conflicts("--timing", {"--mean-timing", "--relaxed"})
      .conflicts("--order", {"--timing", "--mean-timing", "--relaxed", "--strict"})
      .conflicts("--abs-tolerance", {"--mean-timing"})
      .needs("--abs-tolerance", {"--timing"})
      .needs("--tolerance", {"--timing", "--mean-timing"});
  return c;
}

} // namespace pilgrim::diff
