// Linear predictive encoding (the paper's §3.4, Eq. 1-3) of the index
// columns: p = 2, (a1, a2) = (2, -1), e_n = x_n - 2 x_{n-1} + x_{n-2} with
// x_{n<=0} = 0 from the first value on (Eq. 3; Fig. 8 leaves the first two
// values unpredicted, docs/design/cdc.md says why we follow the equation).
// {1, 2, 4, 6, 8, 12, 17} -> {1, 0, 1, 0, 0, 2, 1}.
#pragma once

#include <cstdint>
#include <vector>

namespace pilgrim::order {

// The residuals of `values`. Throws std::invalid_argument if one does not
// fit int64 (never for indices below 2^61).
std::vector<int64_t> lp_encode(const std::vector<int64_t> &values);

// The values again. Throws TraceError if one does not fit int64 (residuals
// read from a corrupt chunk).
std::vector<int64_t> lp_decode(const std::vector<int64_t> &residuals);

} // namespace pilgrim::order
