// earliest_longest_increasing: patience sorting from the right gives, per
// position, the longest increasing run that starts there; a greedy pass from
// the left then takes the first position that can still start the rest.
#include "increasing_subsequence.h"

#include <algorithm>

namespace pilgrim::order::detail {

std::vector<bool> earliest_longest_increasing(const std::vector<uint32_t> &b) {
  const size_t n = b.size();
  // from[i]: the length of the longest increasing subsequence of b[i..]
  // that starts at i. Read right to left, such a subsequence decreases, so
  // it is an increasing one of n - 1 - b (patience sorting's tails).
  std::vector<uint32_t> from(n);
  std::vector<uint32_t> tails;
  for (size_t i = n; i-- > 0;) {
    const uint32_t v = static_cast<uint32_t>(n - 1 - b[i]);
    const auto at = std::lower_bound(tails.begin(), tails.end(), v);
    from[i] = static_cast<uint32_t>(at - tails.begin()) + 1;
    if (at == tails.end())
      tails.push_back(v);
    else
      *at = v;
  }
  std::vector<bool> kept(n, false);
  size_t need = tails.size();
  int64_t last = -1;
  for (size_t i = 0; i < n && need > 0; ++i) {
    if (from[i] == need && static_cast<int64_t>(b[i]) > last) {
      kept[i] = true;
      last = b[i];
      --need;
    }
  }
  return kept;
}

} // namespace pilgrim::order::detail
