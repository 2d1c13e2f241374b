// Shared by the timing unit tests: the bound each mode promises, checked on
// every decoded value (docs/FORMAT.md, "Per-call timing: chunks").
//   lossless        exact
//   cfg/hist/pred   with ŝ, ê the decoded times: each start within eps of
//                   its gap measured from the decoded previous end (closed
//                   loop), |ŝ_i - s_i| <= eps * |s_i - ê_{i-1}|, and each
//                   decoded duration within eps of the exact one,
//                   |(ê_i - ŝ_i) - (e_i - s_i)| <= eps * |e_i - s_i|; a
//                   chunk's first start is exact
//   zfp             |ŝ_i - s_i| <= tol and |ê_i - e_i| <= tol (ticks)
#pragma once

#include "pilgrim/timing_spec.h"
#include "pilgrim/timing_synthetic.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

namespace pilgrim::timing::test {

// "MODE@V": the chunk layouts of format version V (an older file's).
inline Spec spec_of(const std::string &text) {
  Spec s;
  std::string error;
  const size_t at = text.find('@');
  if (!parse_spec(text.substr(0, at), s, error))
    ADD_FAILURE() << error;
  if (at != std::string::npos)
    s.format_version = static_cast<uint16_t>(std::stoi(text.substr(at + 1)));
  return s;
}

// The tests take zfp's TOL in ticks (the runtime converts seconds). Group 1
// has a per-function bound three times the mode's (capped below 1 for EPS).
inline std::vector<double> group_bounds(const Spec &spec, size_t ngroups) {
  std::vector<double> b(ngroups, spec.bound);
  if (ngroups > 1)
    b[1] = spec.absolute() ? spec.bound * 3 : std::min(0.9, spec.bound * 3);
  return b;
}

inline double bound_at(const Spec &spec, const std::vector<double> &bounds, uint32_t g) {
  return g < bounds.size() ? bounds[g] : spec.bound;
}

inline int64_t diff(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

inline bool within(double err, double allowed) { return err <= allowed * (1 + 1e-12); }

// Checks calls [from, from + n) of `s` against their decoded times (indexed
// from 0); chunks of `chunk` calls restart the closed loop.
inline bool check_bounds(const Spec &spec, const std::vector<double> &bounds, const TickStream &s,
                         size_t from, size_t n, const std::vector<int64_t> &start,
                         const std::vector<int64_t> &end, size_t chunk = SIZE_MAX) {
  int failures = 0;
  auto fail = [&](size_t i, const char *what, int64_t got, int64_t want, double allowed) {
    if (failures++ < 5)
      ADD_FAILURE() << spec_text(spec) << ": call " << i << " " << what << " decoded " << got
                    << ", exact " << want << ", allowed error " << allowed;
  };
  for (size_t i = 0; i < n; ++i) {
    const size_t k = from + i;
    const double b = bound_at(spec, bounds, s.group[k]);
    const double es = std::fabs(static_cast<double>(diff(start[i], s.start[k])));
    const double ee = std::fabs(static_cast<double>(diff(end[i], s.end[k])));
    if (spec.method == Method::Lossless) {
      if (es != 0)
        fail(i, "start", start[i], s.start[k], 0);
      if (ee != 0)
        fail(i, "end", end[i], s.end[k], 0);
    } else if (spec.absolute()) {
      if (!within(es, b))
        fail(i, "start", start[i], s.start[k], b);
      if (!within(ee, b))
        fail(i, "end", end[i], s.end[k], b);
    } else {
      const bool first = i % chunk == 0;
      const double gap = first ? 0 : std::fabs(static_cast<double>(diff(s.start[k], end[i - 1])));
      const double dur = std::fabs(static_cast<double>(diff(s.end[k], s.start[k])));
      const double ed =
          std::fabs(static_cast<double>(diff(diff(end[i], start[i]), diff(s.end[k], s.start[k]))));
      if (!within(es, b * gap))
        fail(i, "start", start[i], s.start[k], b * gap);
      if (!within(ed, b * dur))
        fail(i, "duration", diff(end[i], start[i]), diff(s.end[k], s.start[k]), b * dur);
    }
  }
  return failures == 0;
}

// No accumulation: the largest absolute error over the last calls is no
// larger than over the first ones (same stream statistics), and each is
// within the bound of the call's own values as check_bounds states it.
inline double max_abs_error(const TickStream &s, size_t from, const std::vector<int64_t> &start,
                            const std::vector<int64_t> &end) {
  double m = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    m = std::max(m, std::fabs(static_cast<double>(diff(start[i], s.start[from + i]))));
    m = std::max(m, std::fabs(static_cast<double>(diff(end[i], s.end[from + i]))));
  }
  return m;
}

} // namespace pilgrim::timing::test
