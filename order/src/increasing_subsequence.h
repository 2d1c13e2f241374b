// The longest increasing subsequence that the permutation encoder keeps in
// place: of all the longest ones, the one whose positions come first (each
// kept element as early in the observed order as a longest one allows).
// Paper's Fig. 7: B = [0,3,2,1,4,7,5,6] keeps 0,3,4,5,6, so 1, 2 and 7 move.
#pragma once

#include <cstdint>
#include <vector>

namespace pilgrim::order::detail {

// kept[i]: position i of `b` (a permutation of 0..N-1) is in that
// subsequence. O(N log N).
std::vector<bool> earliest_longest_increasing(const std::vector<uint32_t> &b);

} // namespace pilgrim::order::detail
