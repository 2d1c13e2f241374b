// Synthetic tick streams (timing_synthetic.h).
#include "pilgrim/timing_synthetic.h"

#include <cmath>
#include <random>

namespace pilgrim::timing {

const std::vector<std::string> &synthetic_kinds() {
  static const std::vector<std::string> kinds = {"constant", "uniform", "bimodal", "pareto",
                                                 "zero",     "signed",  "stencil"};
  return kinds;
}

bool synthetic_stream(const std::string &kind, size_t n, uint64_t seed, TickStream &out) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  auto normal = [&](double mean, double sd) {
    return std::max(0.0, std::normal_distribution<double>(mean, sd)(rng));
  };
  auto pareto = [&](double xm, double alpha) { return xm / std::pow(1.0 - u01(rng), 1.0 / alpha); };
  auto ticks = [](double v) { return static_cast<int64_t>(std::llround(std::min(v, 1e15))); };
  out.start.resize(n);
  out.end.resize(n);
  out.group.resize(n);
  int64_t t = 1'000'000'000; // the run's clock at the first call
  for (size_t i = 0; i < n; ++i) {
    int64_t gap = 0, dur = 0;
    uint32_t g = 0;
    if (kind == "constant") {
      gap = 1000;
      dur = 500;
    } else if (kind == "uniform") {
      gap = static_cast<int64_t>(rng() % 10001);
      dur = static_cast<int64_t>(rng() % 10001);
      g = static_cast<uint32_t>(i % 3);
    } else if (kind == "bimodal") {
      g = static_cast<uint32_t>(rng() & 1);
      dur = ticks(g ? normal(20000, 2000) : normal(200, 20));
      gap = ticks(g ? normal(5000, 500) : normal(50, 5));
    } else if (kind == "pareto") {
      g = static_cast<uint32_t>(i % 4);
      dur = ticks(pareto(100, 1.2));
      gap = ticks(pareto(100, 1.2));
    } else if (kind == "zero") {
      g = static_cast<uint32_t>(i % 2);
    } else if (kind == "signed") {
      g = static_cast<uint32_t>(i % 5);
      dur = static_cast<int64_t>(rng() % 3000);
      gap = static_cast<int64_t>(rng() % 20001) - 10000;
    } else if (kind == "stencil") {
      // 14 calls per iteration: Irecv x4, Isend x4, Waitall, then Comm_rank,
      // Allreduce (every 10th iteration, else a second Comm_rank) and 3
      // bookkeeping calls; the compute phase before each iteration.
      const size_t pos = i % 14, iter = i / 14;
      g = static_cast<uint32_t>(pos);
      if (pos == 10 && iter % 10 == 0)
        g = 14; // Allreduce
      if (pos == 0)
        gap = ticks(normal(1'000'000, 20'000)); // compute
      else
        gap = ticks(normal(120, 15));
      if (pos < 8)
        dur = ticks(normal(pos < 4 ? 350 : 600, 40));
      else if (pos == 8)
        dur = ticks(u01(rng) < 0.8 ? normal(4000, 600) : normal(30000, 8000)); // Waitall
      else if (g == 14)
        dur = ticks(normal(15000, 3000));
      else
        dur = ticks(normal(60, 6));
    } else {
      return false;
    }
    t += gap;
    out.start[i] = t;
    out.group[i] = g;
    t += dur;
    out.end[i] = t;
  }
  return true;
}

} // namespace pilgrim::timing
