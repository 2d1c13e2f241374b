// MovableSequence: the sequence 0..N-1 in which one element at a time is
// taken out and put back elsewhere, and an element's current position is
// asked, each in O(log N) expected: an implicit treap (a binary tree in
// sequence order, balanced by random priorities from a fixed seed) with
// parent links. The permutation codec (cdc_permutation.cpp) runs its moves
// on it, so that N - LIS moves cost O(N log N) rather than O(N) each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim::order::detail {

class MovableSequence {
public:
  // 0, 1, ..., n - 1; n < 2^32 - 1.
  explicit MovableSequence(size_t n);

  size_t size() const { return left_.size(); }
  // The position of element e (< size()).
  size_t position(uint32_t e) const;
  // Takes e out and puts it back at position `to` (<= size() - 1) of the
  // result.
  void move_to(uint32_t e, size_t to);
  // The elements in sequence order.
  std::vector<uint32_t> elements() const;

private:
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t count(uint32_t x) const { return x == kNone ? 0 : size_[x]; }
  void pull(uint32_t x);
  // Splits tree t into its first k elements (a) and the rest (b).
  void split(uint32_t t, size_t k, uint32_t &a, uint32_t &b);
  uint32_t merge(uint32_t a, uint32_t b);

  std::vector<uint32_t> left_, right_, parent_, size_, priority_;
  uint32_t root_ = kNone;
};

} // namespace pilgrim::order::detail
