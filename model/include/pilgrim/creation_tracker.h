// What a rank's creations make apply at each point of its walk
// (docs/FORMAT.md §7, "Which communicator entry applies"). Ids of
// communicators, windows and requests are reused after they are freed, so
// what an id means depends on the call's position in the rank's call
// sequence, not on its CST entry:
//
//  * a user communicator id u: the COMMS entry of the creation of u that
//    the call follows (the k-th creation of u along the walk is the k-th
//    entry with comm_id u), and the grid that creation made;
//  * a window id: the caller's rank in the communicator of the call that
//    created it, as that communicator was at that call;
//  * a request id: the communicator of the call that created it, as it was
//    at that call (what a completion's status source is relative to, in
//    format version 3);
//  * a user datatype id: the layout its last layout record stated
//    (datatype_layouts.h; format version 5).
//
// A reader walks the rank's calls in order and calls apply() after each.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pilgrim/call_context.h"
#include "pilgrim/cart_topology.h"
#include "pilgrim/datatype_layouts.h"
#include "pilgrim/signature_decoder.h"
#include "pilgrim/trace_model.h"

namespace pilgrim {

class CreationTracker {
public:
  // `table`: the rank's COMMS entries in table order; `creations[u]`: how
  // many times the rank's whole walk creates communicator id u
  // (comm_creations()). An id with one entry more than creations has a
  // communicator from before the first call (a spawned process's parent);
  // any other mismatch leaves the id unknown.
  CreationTracker(int64_t world_rank, uint16_t format_version, const std::vector<CommInfo> &table,
                  const std::map<uint64_t, uint64_t> &creations);
  // Rank `rank` of `trace` before its first call; calls[t] is CST entry t
  // decoded (`function` nullptr for an entry that does not decode).
  static CreationTracker for_rank(const Trace &trace, uint32_t rank,
                                  const std::vector<DecodedCall> &calls);

  // `call`, just made `times` times in a row, takes effect: the ids it
  // creates get their new meaning. Calls that create nothing cost a scan of
  // their parameter list.
  void apply(const DecodedCall &call, uint64_t times = 1);

  // The context for the next call (points into this object).
  CallContext context() const { return CallContext{world_rank_, format_version_, this}; }

  RankBase comm(uint64_t id) const; // user communicator id u
  // Which of the rank's COMMS entries with comm_id u applies (0 for the
  // first in table order, ...); -1 unknown. With the rank's table it names
  // the communicator instance (communicator_instances.h), which the matrix
  // of pilgrim-stats needs to turn ranks in u into world ranks.
  int64_t comm_entry_index(uint64_t id) const;
  int64_t window_rank(uint64_t id) const; // user window id w; -1 unknown
  RankBase request(uint64_t code) const;  // request handle code
  // The layout of the user datatype with this handle code; nullptr unknown.
  const DatatypeLayout *datatype(uint64_t code) const { return datatypes_.find(code); }
  // Changes whenever an answer of comm(), window_rank(), request() or
  // datatype() changes.
  uint64_t version() const { return version_; }
  // Communicator creations applied so far (each moves an id to its next
  // entry, even where the answers stay the same).
  uint64_t creations() const { return creations_; }

private:
  struct CommSlot {
    std::vector<CommInfo> entries; // this id's COMMS entries, in table order
    uint64_t offset = 0;           // 1: entries[0] applies before the first creation
    bool consistent = true;        // entries == creations + offset, offset 0 or 1
    uint64_t created = 0;          // creations applied so far
    CartGrid grid;                 // the grid of the creation that applies
  };
  struct Base {
    int64_t rank = -1;
    CartGrid grid;
  };
  const CommInfo *entry(const CommSlot &s) const;
  Base base_of(uint64_t handle_code) const;

  int64_t world_rank_;
  uint16_t format_version_;
  std::unordered_map<uint64_t, CommSlot> comms_;
  std::unordered_map<uint64_t, int64_t> windows_;
  std::unordered_map<uint64_t, Base> requests_;
  DatatypeLayouts datatypes_;
  uint64_t version_ = 0;
  uint64_t creations_ = 0;
};

// The user ids of kind `kind` that `call` creates: the out elements 2u + 2
// of its Handle parameters of that kind with action Create, in parameter
// and element order (null and predefined elements are not creations).
std::vector<uint64_t> created_ids(const DecodedCall &call, HandleKind kind);

// How many times a walk creates each user communicator id, from how many
// times it makes each CST entry ((terminal, count) pairs, as
// terminal_counts returns them); counts saturate.
std::map<uint64_t, uint64_t>
comm_creations(const std::vector<DecodedCall> &calls,
               const std::vector<std::pair<uint64_t, uint64_t>> &terminal_counts);

} // namespace pilgrim
