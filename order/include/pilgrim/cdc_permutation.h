// Permutation encoding (the paper's §3.3, §4.1, Fig. 7): the observed order
// of a table key's messages stored as the few moves that turn the reference
// order (by clock, then sender rank) into it, and decoded back from the
// reference order that replay rebuilds out of the clocks it receives.
//
// The decoder rule (docs/design/cdc.md, "The decoder rule"): start from the
// reference indices [0, 1, ..., N-1]; take the moves in ascending index
// order; each takes the element with that reference index out of the current
// sequence and puts it back `delay` positions later (negative: earlier), so
// that it stands at position p + delay of the result, p being its position
// before the move. The encoder keeps a longest increasing subsequence of the
// observed order in place (the one whose elements come earliest in the
// observed order) and moves each other element, in ascending reference
// index, into its place among the elements already placed, by the smallest
// |delay| that does it: N - LIS moves, the fewest any encoding can use, no
// delay 0. Both run in O(N log N).
#pragma once

#include "pilgrim/cdc_event.h"

#include <cstdint>
#include <vector>

namespace pilgrim::order {

// One row of the permutation-difference table: the message of reference
// index `index` is moved by `delay` positions (+ later, - earlier).
struct Move {
  uint64_t index = 0;
  int64_t delay = 0;

  friend bool operator==(const Move &a, const Move &b) {
    return a.index == b.index && a.delay == b.delay;
  }
};

// B, the observed order written as reference indices: element i is the
// position of observed message i in the reference order. Messages with the
// same (rank, clock), which replay cannot tell apart, keep their observed
// order.
std::vector<uint32_t> reference_indices(const std::vector<MessageId> &observed);

// The reference order of `messages` (sorted by reference_before).
std::vector<MessageId> reference_order(std::vector<MessageId> messages);

// The moves of B (a permutation of 0..N-1, N < 2^32 - 1; else
// std::invalid_argument), ascending by index.
std::vector<Move> encode_permutation(const std::vector<uint32_t> &b);

// B from N and the moves, by the decoder rule. Throws TraceError for moves
// that no encoder writes: indices not ascending or not below N, a move that
// leaves the sequence.
std::vector<uint32_t> apply_moves(uint64_t n, const std::vector<Move> &moves);

// The two ends together: the moves of the observed order of `observed`, and
// the observed order again from the messages in any order (what replay
// received) and the moves.
std::vector<Move> encode_order(const std::vector<MessageId> &observed);
std::vector<MessageId> decode_order(const std::vector<MessageId> &received,
                                    const std::vector<Move> &moves);

} // namespace pilgrim::order
