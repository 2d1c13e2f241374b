// The symbolic ids of one kind of object whose ids every member agrees on
// (communicators, windows, files). Ids 0..kBitmapIds-1 are tracked in a
// bitmap and reused after release, smallest first, so a loop that creates and
// frees one communicator per iteration draws the same id every time. Beyond
// the bitmap (no id free on every member among the candidates), ids come from
// counters that only grow:
//
//  * a blocking agreement takes the largest counter value its members
//    propose. Each member's counter then passes that value, and nothing
//    else happens on the member between its proposal and the choice, so the
//    id is new on every member.
//  * an agreement in flight (MPI_Comm_idup) cannot use that counter: until
//    it resolves, a member whose proposal was lower than another member's
//    makes other agreements, which can reach the in-flight one's eventual
//    maximum, and the member would hold two live communicators with one id
//    (the trace then names two communicators alike, and a proxy, one
//    variable per id, replays the wrong one). In-flight agreements draw from
//    their own range, kPendingFirst up, numbered by their own counter paired
//    with the parent's agreed id: two in flight at once on a member have
//    different live parents, or one parent, whose idups start in the same
//    order on every member, so with a larger counter on every member.
//
// An agreement (id_agreement.cpp) works on a snapshot: hold() sets aside the
// few smallest free ids as this rank's candidates and writes the
// "not available here" bitmap the members OR together; choose() then takes
// the smallest id free on every member and gives the other candidates back.
// Held ids are not handed out meanwhile, so an agreement still in flight (a
// nonblocking MPI_Comm_idup, another thread's creation) never collides with
// one that starts later.
#pragma once

#include <cstdint>
#include <vector>

namespace pilgrim::rt {

class AgreedIdSet {
public:
  static constexpr uint32_t kWords = 16;
  static constexpr uint32_t kBitmapIds = kWords * 64; // 1024
  // Candidates a rank offers: many for a blocking agreement (released when it
  // returns), fewer for a nonblocking one, whose candidates stay out of use
  // until it resolves (a creation meanwhile draws ids above them).
  static constexpr int kCandidates = 64;
  static constexpr int kPendingCandidates = 16;
  // The first id of an agreement in flight beyond the bitmap.
  static constexpr uint32_t kPendingFirst = 1u << 31;

  struct Snapshot {
    uint64_t unavailable[kWords]; // what the members OR together
    uint64_t overflow;            // what the members MAX together (this rank's counter)
    uint64_t held[kWords];        // this rank's candidates, given back by choose()
  };

  // An id for a handle no agreement covered (never seen created): the
  // smallest free one. It is this rank's alone.
  uint32_t acquire_local() {
    for (uint32_t w = 0; w < kWords; ++w) {
      uint64_t taken = used_[w] | held_[w];
      if (~taken) {
        uint32_t id = w * 64 + static_cast<uint32_t>(__builtin_ctzll(~taken));
        used_[w] |= bit(id);
        return id;
      }
    }
    return next_overflow_++;
  }
  void release(uint32_t id) {
    if (id < kBitmapIds)
      used_[id / 64] &= ~bit(id);
  }
  bool in_use(uint32_t id) const { return id < kBitmapIds && (used_[id / 64] & bit(id)); }

  // `pending`: an agreement in flight, resolved by choose_pending().
  void hold(Snapshot &s, int candidates = kCandidates, bool pending = false) {
    int n = 0;
    for (uint32_t w = 0; w < kWords; ++w) {
      s.held[w] = 0;
      uint64_t free_bits = ~(used_[w] | held_[w]);
      while (free_bits && n < candidates) {
        uint64_t low = free_bits & (~free_bits + 1);
        s.held[w] |= low;
        free_bits &= ~low;
        ++n;
      }
      held_[w] |= s.held[w];
      s.unavailable[w] = ~s.held[w];
    }
    // The counter value this rank proposes is reserved here too.
    s.overflow = pending ? next_pending_++ : next_overflow_++;
  }
  // `any` is the OR of every member's `unavailable`, `max_overflow` the MAX of
  // their `overflow`: the same on every member, so is the id returned.
  uint32_t choose(const Snapshot &s, const uint64_t *any, uint64_t max_overflow) {
    uint32_t id = 0;
    if (choose_in_bitmap(s, any, id))
      return id;
    id = static_cast<uint32_t>(max_overflow);
    if (next_overflow_ <= id)
      next_overflow_ = id + 1;
    return id;
  }
  // The same for an agreement in flight (hold(..., true)), over the
  // parent communicator with agreed code `parent_code`.
  uint32_t choose_pending(const Snapshot &s, const uint64_t *any, uint64_t max_overflow,
                          uint64_t parent_code) {
    uint32_t id = 0;
    if (choose_in_bitmap(s, any, id))
      return id;
    if (next_pending_ <= max_overflow)
      next_pending_ = max_overflow + 1;
    return kPendingFirst + static_cast<uint32_t>(pair(max_overflow, parent_code) % kPendingFirst);
  }
  // Nothing to agree with (a single member): like an agreement with oneself.
  uint32_t choose_alone() {
    Snapshot s;
    hold(s);
    return choose(s, s.unavailable, s.overflow);
  }

private:
  static uint64_t bit(uint32_t id) { return uint64_t{1} << (id % 64); }
  // Gives back this agreement's candidates and takes the smallest id free on
  // every member, if any.
  bool choose_in_bitmap(const Snapshot &s, const uint64_t *any, uint32_t &id) {
    for (uint32_t w = 0; w < kWords; ++w)
      held_[w] &= ~s.held[w];
    for (uint32_t w = 0; w < kWords; ++w)
      if (~any[w]) {
        id = w * 64 + static_cast<uint32_t>(__builtin_ctzll(~any[w]));
        used_[w] |= bit(id);
        return true;
      }
    return false;
  }
  // Cantor's pairing: distinct pairs, distinct numbers (below 2^31 while
  // counter + code < 65535; beyond, taken modulo 2^31).
  static uint64_t pair(uint64_t a, uint64_t b) { return (a + b) * (a + b + 1) / 2 + b; }
  uint64_t used_[kWords] = {};
  uint64_t held_[kWords] = {};
  uint32_t next_overflow_ = kBitmapIds;
  uint64_t next_pending_ = 0;
};

} // namespace pilgrim::rt
