// clock_sync_check: the runtime's clock exchange with rank 0 and the readers'
// alignment, end to end without a trace. Linked with the runtime's clock
// (pilgrim_clock) and the model's alignment; not run under the tracer.
//
// Run with PILGRIM_CLOCK=monotonic PILGRIM_TEST_CLOCK_OFFSET_NS=X: rank r's
// clock then reads r*X ns late. Every rank chooses its clock as the runtime
// does, syncs with rank 0 (as at MPI_Init), leaves ITER barriers reading its
// clock at each exit, syncs again (as at MPI_Finalize) and sends rank 0 its
// encoded clock block and its readings. Rank 0 checks:
//  1. the raw readings differ by the injected offsets (r*X);
//  2. each reading, aligned, is the true time within half the rank's longest
//     sync round trip: CLOCK_MONOTONIC is one clock for the whole machine,
//     so the truth is known (the reading minus r*X). This bound is exact;
//     scheduling cannot break it;
//  3. the barrier exits, aligned, spread as they truly spread: every rank
//     also reads the machine's CLOCK_MONOTONIC (never offset) right after
//     its clock at each exit, so each barrier's true spread is known
//     whatever the clock. How far the exits spread depends on the scheduler
//     (MPICH spins: at 4 ranks on 2 cores two ranks are always descheduled
//     and the exits spread by time slices, 4-20 ms seen here under load);
//     how far the aligned spread is from the true one depends only on the
//     alignment: at most the two ranks' half round trips, the longest round
//     trip in all, plus TOL microseconds for the two readings' distance and
//     the tick rate's calibration. A rank descheduled between its two
//     readings breaks one barrier, so the median barrier is checked.
// Usage: clock_sync_check [-n ITER] [-t TOL_US] [-v]  (defaults 20 and 50)
#include "mpi_test_util.h"

#include "clock/clock_source.h"
#include "clock/clock_sync.h"
#include "pilgrim/clock_alignment.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

using pilgrim::RankClock;

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("clock_sync_check");
  int tol_us = 50;
  int iters = 20;
  bool verbose = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      iters = mpitest::parse_count(argv[++a], "-n", 1);
    else if (arg == "-t" && a + 1 < argc)
      tol_us = mpitest::parse_count(argv[++a], "-t", 1);
    else if (arg == "-v")
      verbose = true;
    else
      mpitest::fail("unknown argument '%s'", arg.c_str());
  }
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  std::string error;
  CHECK(pilgrim::rt::choose_clock(rank, error), "%s", error.c_str());
  const char *offset_env = std::getenv("PILGRIM_TEST_CLOCK_OFFSET_NS");
  const long long offset_ns = offset_env ? std::atoll(offset_env) : 0;
  CHECK(pilgrim::rt::g_monotonic_offset_ns == offset_ns * rank, "offset %lld, expected %lld",
        static_cast<long long>(pilgrim::rt::g_monotonic_offset_ns), offset_ns * rank);

  MPI_Comm priv;
  MPI_Comm_dup(MPI_COMM_WORLD, &priv);
  pilgrim::rt::TickRate rate;
  rate.begin();
  int64_t init_ns = 0, fin_ns = 0;
  const pilgrim::ClockSync init = pilgrim::rt::sync_with_rank0(priv, rank, size, &init_ns);
  // Per barrier: this rank's clock, then the machine's true time.
  std::vector<long long> exits(2 * static_cast<size_t>(iters));
  for (int i = 0; i < iters; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    exits[2 * static_cast<size_t>(i)] = pilgrim::rt::ticks();
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    exits[2 * static_cast<size_t>(i) + 1] = ts.tv_sec * 1000000000LL + ts.tv_nsec;
  }
  const pilgrim::ClockSync fin = pilgrim::rt::sync_with_rank0(priv, rank, size, &fin_ns);
  rate.end();
  std::vector<uint8_t> block;
  pilgrim::encode_rank_clock(pilgrim::rt::describe_clock(rate, init, fin), block);
  CHECK(block.size() == pilgrim::kRankClockBytes, "clock block of %zu bytes", block.size());

  const int nb = static_cast<int>(pilgrim::kRankClockBytes);
  std::vector<uint8_t> blocks(rank == 0 ? block.size() * static_cast<size_t>(size) : 0);
  std::vector<long long> all_exits(rank == 0 ? exits.size() * static_cast<size_t>(size) : 0);
  MPI_Gather(block.data(), nb, MPI_BYTE, blocks.data(), nb, MPI_BYTE, 0, priv);
  MPI_Gather(exits.data(), 2 * iters, MPI_LONG_LONG, all_exits.data(), 2 * iters, MPI_LONG_LONG,
             0, priv);
  MPI_Comm_free(&priv);

  if (rank == 0) {
    std::vector<RankClock> clocks(static_cast<size_t>(size));
    const uint8_t *p = blocks.data(), *end = p + blocks.size();
    for (RankClock &c : clocks)
      CHECK(pilgrim::decode_rank_clock(p, end, c, error), "%s", error.c_str());
    const RankClock &c0 = clocks[0];
    CHECK(c0.init.rtt_rank0_ticks == 0 && c0.init.tick == c0.init.rank0_tick,
          "rank 0's own sync is not {t, t, 0}");
    auto exit_at = [&](int r, int i, int which) {
      return all_exits[(static_cast<size_t>(r) * static_cast<size_t>(iters) +
                        static_cast<size_t>(i)) * 2 + static_cast<size_t>(which)];
    };
    auto exit_tick = [&](int r, int i) { return exit_at(r, i, 0); };
    auto exit_true_ns = [&](int r, int i) { return exit_at(r, i, 1); };
    double worst_error_us = 0, best_spread_us = 1e300, worst_spread_us = 0,
           best_true_spread_us = 1e300;
    std::vector<double> spreads, spread_errors;
    for (int i = 0; i < iters; ++i) {
      double lo = 1e300, hi = -1e300;
      for (int r = 0; r < size; ++r) {
        const RankClock &c = clocks[static_cast<size_t>(r)];
        const long long raw = exit_tick(r, i);
        // 1. The raw clocks differ by the injected offset (the barrier is
        // left within well under X/2 when X is seconds).
        const long long injected = offset_ns * r;
        if (offset_ns >= 1000000000)
          CHECK(std::llabs(raw - exit_tick(0, i) - injected) < offset_ns / 2,
                "rank %d's raw clock is %lld ns from rank 0's, %lld injected", r,
                raw - exit_tick(0, i), injected);
        // 2. Aligned = true time within half the longest round trip (+1 ns
        // of the midpoint's rounding); ns_per_tick is 1 on the monotonic clock.
        const double aligned = pilgrim::aligned_seconds(c, c0, raw);
        if (c.source == static_cast<uint8_t>(pilgrim::ClockSource::Monotonic)) {
          const double truth = static_cast<double>(raw - injected - c0.init.tick) * 1e-9;
          const double bound_ns =
              static_cast<double>(std::max(c.init.rtt_rank0_ticks, c.finalize.rtt_rank0_ticks)) /
                  2 +
              2;
          const double err_ns = std::fabs(aligned - truth) * 1e9;
          CHECK(err_ns <= bound_ns,
                "rank %d barrier %d: aligned %.9f s, true %.9f s (%.0f ns off, bound %.0f ns)", r,
                i, aligned, truth, err_ns, bound_ns);
          worst_error_us = std::max(worst_error_us, err_ns * 1e-3);
        }
        lo = std::min(lo, aligned);
        hi = std::max(hi, aligned);
      }
      long long true_min = LLONG_MAX, true_max = LLONG_MIN;
      for (int r = 0; r < size; ++r) {
        true_min = std::min(true_min, exit_true_ns(r, i));
        true_max = std::max(true_max, exit_true_ns(r, i));
      }
      const double spread_us = (hi - lo) * 1e6;
      const double true_spread_us = static_cast<double>(true_max - true_min) * 1e-3;
      spreads.push_back(spread_us);
      spread_errors.push_back(std::fabs(spread_us - true_spread_us));
      best_true_spread_us = std::min(best_true_spread_us, true_spread_us);
      best_spread_us = std::min(best_spread_us, spread_us);
      worst_spread_us = std::max(worst_spread_us, spread_us);
    }
    std::sort(spreads.begin(), spreads.end());
    std::sort(spread_errors.begin(), spread_errors.end());
    long long max_rtt = 0;
    for (const RankClock &c : clocks)
      max_rtt = std::max({max_rtt, static_cast<long long>(c.init.rtt_rank0_ticks),
                          static_cast<long long>(c.finalize.rtt_rank0_ticks)});
    const double max_rtt_us = static_cast<double>(max_rtt) * c0.ns_per_tick * 1e-3;
    const double median_error_us = spread_errors[spread_errors.size() / 2];
    if (verbose) {
      const bool truth = c0.source == static_cast<uint8_t>(pilgrim::ClockSource::Monotonic);
      std::fprintf(stderr,
                   "clock_sync_check: %d ranks, %s clock, longest best round trip %.1f us; "
                   "aligned barrier exits spread: best %.1f us, median %.1f us, worst %.1f us "
                   "(truly at best %.1f us); aligned spread off the true one by %.1f us at the "
                   "median; rank 0's syncs took %.2f ms and %.2f ms\n",
                   size, truth ? "monotonic" : "TSC", max_rtt_us, best_spread_us,
                   spreads[spreads.size() / 2], worst_spread_us, best_true_spread_us,
                   median_error_us, static_cast<double>(init_ns) * 1e-6,
                   static_cast<double>(fin_ns) * 1e-6);
      if (truth)
        std::fprintf(stderr, "clock_sync_check: largest alignment error %.1f us\n",
                     worst_error_us);
    }
    // 3. Aligned, the barrier exits spread as they truly spread.
    CHECK(median_error_us <= max_rtt_us + tol_us,
          "aligned barrier exits spread %.1f us away from their true spread at the median "
          "barrier (bound: the longest round trip %.1f us + %d us)",
          median_error_us, max_rtt_us, tol_us);
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
