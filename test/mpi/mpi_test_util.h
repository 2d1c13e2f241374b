// Shared helpers for the MPI test programs of Pilgrim's test corpus.
//
// Every program checks its own results.  On success only rank 0 prints a
// single line "<name>: OK" to stdout; on the first mismatch the failing rank
// prints "<name>: FAIL <what>" to stderr and aborts MPI_COMM_WORLD with
// error code 1.
#ifndef PILGRIM_TEST_MPI_TEST_UTIL_H
#define PILGRIM_TEST_MPI_TEST_UTIL_H

// The programs use the MPI C API only; keep the (deprecated) C++ bindings out
// so that the headers compile cleanly with -Wall -Wextra -Werror.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace mpitest {

inline const char *&test_name() {
  static const char *name = "mpi-test";
  return name;
}

inline void set_name(const char *name) { test_name() = name; }

[[noreturn]] void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// Report a failure and abort the whole job.
[[noreturn]] inline void fail(const char *fmt, ...) {
  char what[512];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  int initialized = 0, finalized = 0, rank = -1;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  const bool mpi_usable = initialized && !finalized;
  if (mpi_usable) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "%s: FAIL rank %d: %s\n", test_name(), rank, what);
  std::fflush(stderr);
  if (mpi_usable) MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

// Wait until every rank has passed all its checks, then let rank 0 print the
// single success line.  Call right before MPI_Finalize.
inline void pass() {
  MPI_Barrier(MPI_COMM_WORLD);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    std::printf("%s: OK\n", test_name());
    std::fflush(stdout);
  }
}

// The value of a numeric command-line option such as "-n 20": an integer in
// [min, 100000], or a failure that names the option.
inline int parse_count(const char *text, const char *opt, long min) {
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < min || v > 100000)
    fail("invalid value '%s' for %s", text, opt);
  return int(v);
}

// The caller's rank in `c`, and the size of `c`'s (local) group.
inline int comm_rank(MPI_Comm c) {
  int r = -1;
  MPI_Comm_rank(c, &r);
  return r;
}

inline int comm_size(MPI_Comm c) {
  int s = -1;
  MPI_Comm_size(c, &s);
  return s;
}

inline bool close_to(double got, double want, double rel = 1e-12) {
  return std::fabs(got - want) <= rel * std::fmax(1.0, std::fabs(want));
}

// Fails with MPI's message unless `err` is MPI_SUCCESS (files use
// MPI_ERRORS_RETURN by default: check every return code).
inline void check_success(int err, const char *what) {
  if (err != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(err, msg, &len);
    fail("%s failed: %s", what, msg);
  }
}

}  // namespace mpitest

#define CHECK(cond, ...)                            \
  do {                                              \
    if (!(cond)) ::mpitest::fail(__VA_ARGS__);      \
  } while (0)

// Check that an MPI status describes a message from `src` with tag `tag`
// holding `count` elements of `type`.
#define CHECK_STATUS(st, type, src, tag, count, what)                                \
  do {                                                                               \
    int check_status_count_ = -1;                                                    \
    MPI_Get_count(&(st), (type), &check_status_count_);                              \
    CHECK((st).MPI_SOURCE == (src) && (st).MPI_TAG == (tag) &&                       \
              check_status_count_ == (count),                                        \
          "%s: status source=%d tag=%d count=%d, expected %d/%d/%d", (what),         \
          (st).MPI_SOURCE, (st).MPI_TAG, check_status_count_, (int)(src), (int)(tag), \
          (int)(count));                                                             \
  } while (0)

#endif  // PILGRIM_TEST_MPI_TEST_UTIL_H
