// One matching-function event as Clock Delta Compression records it (the
// paper's Fig. 4 row) and a received message's identifier (sender rank,
// piggybacked Lamport clock) with the reference order on identifiers
// (docs/design/cdc.md).
#pragma once

#include <cstdint>

namespace pilgrim::order {

// A message: who sent it and the Lamport clock it carried. (source, tag)
// cannot tell apart two messages of one sender that the application sees
// completed in either order (the paper's Fig. 3); (rank, clock) can, since
// the sender's clock grows with every send.
struct MessageId {
  int32_t rank = 0;   // the sender, >= 0
  uint64_t clock = 0; // its Lamport clock at the send

  friend bool operator==(const MessageId &a, const MessageId &b) {
    return a.rank == b.rank && a.clock == b.clock;
  }
  friend bool operator!=(const MessageId &a, const MessageId &b) { return !(a == b); }
};

// The reference order (the paper's Def. 6): by clock, then by sender rank.
inline bool reference_before(const MessageId &a, const MessageId &b) {
  return a.clock != b.clock ? a.clock < b.clock : a.rank < b.rank;
}

// One row of the record (Fig. 4), one table key's events in observed order.
// A matched row is one received message: count 1, `with_next` when the same
// matching call also returned the next matched message (Waitall, Waitsome,
// Testall, Testsome). An unmatched row is `count` consecutive tests that
// returned flag 0; its with_next, rank and clock mean nothing and are ignored.
struct EventRow {
  uint64_t count = 1;
  bool matched = false;
  bool with_next = false;
  MessageId message;

  friend bool operator==(const EventRow &a, const EventRow &b) {
    return a.count == b.count && a.matched == b.matched && a.with_next == b.with_next &&
           a.message == b.message;
  }
  friend bool operator!=(const EventRow &a, const EventRow &b) { return !(a == b); }
};

inline EventRow matched_row(int32_t rank, uint64_t clock, bool with_next = false) {
  return EventRow{1, true, with_next, MessageId{rank, clock}};
}

inline EventRow unmatched_row(uint64_t count) { return EventRow{count, false, false, MessageId{}}; }

} // namespace pilgrim::order
