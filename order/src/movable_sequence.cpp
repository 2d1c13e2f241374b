// MovableSequence: the implicit treap behind the permutation codec's moves.
#include "movable_sequence.h"

namespace pilgrim::order::detail {

namespace {

// splitmix64, fixed seed: the same tree shape in every run.
uint64_t next_random(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace

MovableSequence::MovableSequence(size_t n)
    : left_(n, kNone), right_(n, kNone), parent_(n, kNone), size_(n, 1), priority_(n) {
  uint64_t state = 0x43444320u; // "CDC "
  for (auto &p : priority_)
    p = static_cast<uint32_t>(next_random(state) >> 32);
  // The Cartesian tree of 0..n-1 under the priorities (max on top), built
  // left to right with the right spine on a stack.
  std::vector<uint32_t> spine;
  for (uint32_t x = 0; x < n; ++x) {
    uint32_t last = kNone;
    while (!spine.empty() && priority_[spine.back()] < priority_[x]) {
      last = spine.back();
      spine.pop_back();
    }
    left_[x] = last;
    if (last != kNone)
      parent_[last] = x;
    if (!spine.empty()) {
      right_[spine.back()] = x;
      parent_[x] = spine.back();
    }
    spine.push_back(x);
  }
  root_ = spine.empty() ? kNone : spine.front();
  // Sizes bottom up: children before parents, in post-order.
  std::vector<uint32_t> stack, post;
  if (root_ != kNone)
    stack.push_back(root_);
  while (!stack.empty()) {
    const uint32_t x = stack.back();
    stack.pop_back();
    post.push_back(x);
    if (left_[x] != kNone)
      stack.push_back(left_[x]);
    if (right_[x] != kNone)
      stack.push_back(right_[x]);
  }
  for (size_t i = post.size(); i-- > 0;)
    size_[post[i]] = 1 + count(left_[post[i]]) + count(right_[post[i]]);
}

void MovableSequence::pull(uint32_t x) {
  size_[x] = 1 + count(left_[x]) + count(right_[x]);
  if (left_[x] != kNone)
    parent_[left_[x]] = x;
  if (right_[x] != kNone)
    parent_[right_[x]] = x;
}

void MovableSequence::split(uint32_t t, size_t k, uint32_t &a, uint32_t &b) {
  if (t == kNone) {
    a = b = kNone;
    return;
  }
  if (count(left_[t]) >= k) {
    split(left_[t], k, a, left_[t]);
    pull(t);
    b = t;
  } else {
    split(right_[t], k - count(left_[t]) - 1, right_[t], b);
    pull(t);
    a = t;
  }
  parent_[t] = kNone; // the caller links it, or it is a root
}

uint32_t MovableSequence::merge(uint32_t a, uint32_t b) {
  if (a == kNone)
    return b;
  if (b == kNone)
    return a;
  if (priority_[a] >= priority_[b]) {
    right_[a] = merge(right_[a], b);
    pull(a);
    parent_[a] = kNone;
    return a;
  }
  left_[b] = merge(a, left_[b]);
  pull(b);
  parent_[b] = kNone;
  return b;
}

size_t MovableSequence::position(uint32_t e) const {
  size_t pos = count(left_[e]);
  for (uint32_t x = e; parent_[x] != kNone; x = parent_[x])
    if (right_[parent_[x]] == x)
      pos += count(left_[parent_[x]]) + 1;
  return pos;
}

void MovableSequence::move_to(uint32_t e, size_t to) {
  const size_t from = position(e);
  uint32_t before, rest, single, after;
  split(root_, from, before, rest);
  split(rest, 1, single, after);
  const uint32_t without = merge(before, after);
  split(without, to, before, after);
  root_ = merge(merge(before, single), after);
  parent_[root_] = kNone;
}

std::vector<uint32_t> MovableSequence::elements() const {
  std::vector<uint32_t> out;
  out.reserve(size());
  std::vector<uint32_t> stack;
  uint32_t x = root_;
  while (x != kNone || !stack.empty()) {
    while (x != kNone) {
      stack.push_back(x);
      x = left_[x];
    }
    x = stack.back();
    stack.pop_back();
    out.push_back(x);
    x = right_[x];
  }
  return out;
}

} // namespace pilgrim::order::detail
