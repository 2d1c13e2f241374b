// Shared helpers of the fidelity benchmark programs: a failed check prints
// one line naming the program and rank and aborts the run; parse_count reads
// a non-negative option value.
#pragma once

#include <mpi.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fidelity {

inline const char *g_name = "fidelity";

[[noreturn]] inline void fail(const char *fmt, ...) {
  int rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "%s: rank %d: FAILED: ", g_name, rank);
  va_list ap;
  va_start(ap, fmt);
  std::vfprintf(stderr, fmt, ap);
  va_end(ap);
  std::fputc('\n', stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort();
}

inline long parse_count(const char *text, const char *opt) {
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 0 || v > 100000000)
    fail("invalid value '%s' for %s", text, opt);
  return v;
}

// Reads "-n N" style options: names[i] gets values[i].
inline void parse_options(int argc, char **argv, int nopts, const char *const *names,
                          long *values) {
  for (int a = 1; a < argc; ++a) {
    bool known = false;
    for (int o = 0; o < nopts && !known; ++o) {
      if (std::string_view(argv[a]) == names[o] && a + 1 < argc) {
        values[o] = parse_count(argv[++a], names[o]);
        known = true;
      }
    }
    if (!known)
      fail("unknown argument '%s'", argv[a]);
  }
}

}  // namespace fidelity
