// lp_encode / lp_decode: Eq. 3 of the paper with checked arithmetic, so a
// corrupt residual column is an error, never an overflow.
#include "pilgrim/cdc_linear_prediction.h"

#include "pilgrim/trace_error.h"

#include <stdexcept>
#include <string>

namespace pilgrim::order {

namespace {

// x_n - 2 x_{n-1} + x_{n-2}, or false if a step overflows int64.
bool residual(int64_t x, int64_t x1, int64_t x2, int64_t &e) {
  int64_t twice = 0, d = 0;
  return !__builtin_mul_overflow(x1, 2, &twice) && !__builtin_sub_overflow(x, twice, &d) &&
         !__builtin_add_overflow(d, x2, &e);
}

// e_n + 2 x_{n-1} - x_{n-2}, or false if a step overflows int64.
bool value(int64_t e, int64_t x1, int64_t x2, int64_t &x) {
  int64_t twice = 0, s = 0;
  return !__builtin_mul_overflow(x1, 2, &twice) && !__builtin_add_overflow(e, twice, &s) &&
         !__builtin_sub_overflow(s, x2, &x);
}

} // namespace

std::vector<int64_t> lp_encode(const std::vector<int64_t> &values) {
  std::vector<int64_t> residuals(values.size());
  int64_t x1 = 0, x2 = 0; // x_{n-1}, x_{n-2}; 0 before the first
  for (size_t n = 0; n < values.size(); ++n) {
    if (!residual(values[n], x1, x2, residuals[n]))
      throw std::invalid_argument("linear prediction: value " + std::to_string(n) +
                                  " leaves a residual past int64");
    x2 = x1;
    x1 = values[n];
  }
  return residuals;
}

std::vector<int64_t> lp_decode(const std::vector<int64_t> &residuals) {
  std::vector<int64_t> values(residuals.size());
  int64_t x1 = 0, x2 = 0;
  for (size_t n = 0; n < residuals.size(); ++n) {
    if (!value(residuals[n], x1, x2, values[n]))
      throw TraceError("linear prediction: residual " + std::to_string(n) +
                       " gives a value past int64");
    x2 = x1;
    x1 = values[n];
  }
  return values;
}

} // namespace pilgrim::order
