// Permutation encoding and its decoder (the paper's §3.3, §4.1, Fig. 7),
// by the rule that cdc_permutation.h states.
#include "pilgrim/cdc_permutation.h"

#include "increasing_subsequence.h"
#include "movable_sequence.h"
#include "pilgrim/trace_error.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>

namespace pilgrim::order {

namespace {

// Reference indices are uint32_t and MovableSequence keeps UINT32_MAX.
constexpr uint64_t kMaxElements = UINT32_MAX - 1;

} // namespace

std::vector<uint32_t> reference_indices(const std::vector<MessageId> &observed) {
  const size_t n = observed.size();
  if (n > kMaxElements)
    throw std::invalid_argument("CDC permutation: " + std::to_string(n) + " messages");
  std::vector<uint32_t> by_reference(n);
  std::iota(by_reference.begin(), by_reference.end(), 0u);
  std::stable_sort(by_reference.begin(), by_reference.end(), [&](uint32_t a, uint32_t b) {
    return reference_before(observed[a], observed[b]);
  });
  std::vector<uint32_t> b(n);
  for (size_t k = 0; k < n; ++k)
    b[by_reference[k]] = static_cast<uint32_t>(k);
  return b;
}

std::vector<MessageId> reference_order(std::vector<MessageId> messages) {
  std::stable_sort(messages.begin(), messages.end(), reference_before);
  return messages;
}

std::vector<Move> encode_permutation(const std::vector<uint32_t> &b) {
  const size_t n = b.size();
  if (n > kMaxElements)
    throw std::invalid_argument("CDC permutation: " + std::to_string(n) + " elements");
  std::vector<uint32_t> position_in_b(n, UINT32_MAX);
  for (size_t i = 0; i < n; ++i) {
    if (b[i] >= n || position_in_b[b[i]] != UINT32_MAX)
      throw std::invalid_argument("CDC permutation: B is not a permutation of 0.." +
                                  std::to_string(n) + " - 1");
    position_in_b[b[i]] = static_cast<uint32_t>(i);
  }

  // The kept elements stay; the others are placed one by one, in ascending
  // reference index. Invariant: the placed elements (kept or moved) stand in
  // the current sequence in their order in B, so each next one has a gap
  // among them to go to: between its nearest placed neighbours in B.
  const std::vector<bool> kept = detail::earliest_longest_increasing(b);
  std::set<uint32_t> placed; // positions in B of the placed elements
  for (size_t i = 0; i < n; ++i)
    if (kept[i])
      placed.insert(static_cast<uint32_t>(i));
  detail::MovableSequence sequence(n);
  std::vector<Move> moves;
  for (uint32_t m = 0; m < n; ++m) {
    const uint32_t at = position_in_b[m];
    if (kept[at])
      continue;
    const size_t from = sequence.position(m);
    // Positions in the sequence without m, where it is put back.
    auto without_m = [&](uint32_t element) {
      const size_t p = sequence.position(element);
      return p > from ? p - 1 : p;
    };
    const auto next = placed.lower_bound(at);
    const size_t lo = next == placed.begin() ? 0 : without_m(b[*std::prev(next)]) + 1;
    const size_t hi = next == placed.end() ? n - 1 : without_m(b[*next]);
    const size_t to = std::clamp(from, lo, hi);
    moves.push_back(Move{m, static_cast<int64_t>(to) - static_cast<int64_t>(from)});
    sequence.move_to(m, to);
    placed.insert(at);
  }
  return moves;
}

std::vector<uint32_t> apply_moves(uint64_t n, const std::vector<Move> &moves) {
  if (n > kMaxElements)
    throw TraceError("CDC permutation: " + std::to_string(n) + " messages exceed " +
                     std::to_string(kMaxElements));
  if (moves.size() > n)
    throw TraceError("CDC permutation: " + std::to_string(moves.size()) + " moves of " +
                     std::to_string(n) + " messages");
  detail::MovableSequence sequence(static_cast<size_t>(n));
  for (size_t k = 0; k < moves.size(); ++k) {
    const Move &move = moves[k];
    if (move.index >= n || (k > 0 && move.index <= moves[k - 1].index))
      throw TraceError("CDC permutation: move " + std::to_string(k) + " has index " +
                       std::to_string(move.index) + " (indices ascend below " + std::to_string(n) +
                       ")");
    const auto element = static_cast<uint32_t>(move.index);
    const size_t from = sequence.position(element);
    if (move.delay < -static_cast<int64_t>(from) || move.delay > static_cast<int64_t>(n - 1 - from))
      throw TraceError("CDC permutation: move " + std::to_string(k) + " of index " +
                       std::to_string(move.index) + " by " + std::to_string(move.delay) +
                       " leaves the " + std::to_string(n) + " messages");
    sequence.move_to(element, static_cast<size_t>(static_cast<int64_t>(from) + move.delay));
  }
  return sequence.elements();
}

std::vector<Move> encode_order(const std::vector<MessageId> &observed) {
  return encode_permutation(reference_indices(observed));
}

std::vector<MessageId> decode_order(const std::vector<MessageId> &received,
                                    const std::vector<Move> &moves) {
  const std::vector<MessageId> reference = reference_order(received);
  const std::vector<uint32_t> b = apply_moves(reference.size(), moves);
  std::vector<MessageId> observed;
  observed.reserve(b.size());
  for (uint32_t k : b)
    observed.push_back(reference[k]);
  return observed;
}

} // namespace pilgrim::order
