// Every user communicator of a trace, with its members as world ranks
// (docs/FORMAT.md §7.6, "Communicator instances"): the ranks' communicator
// entries grouped by what the whole group agrees on, its id and its groups'
// hashes (format version 5; older traces did not record membership).
#pragma once

#include <cstdint>
#include <vector>

#include "pilgrim/trace_model.h"

namespace pilgrim {

struct CommInstance {
  uint64_t comm_id = 0; // comm#u
  uint32_t occurrence =
      0; // 0 for the first communicator with this id and groups, 1 for the next, ...
  // World rank of each rank of the (first) group, in rank order; -1 where no
  // rank of this trace holds that rank (a process of another job, spawned or
  // connected, whose trace is its own).
  std::vector<int64_t> members;
  // An intercommunicator's other group, likewise; empty for an intracommunicator.
  bool inter = false;
  std::vector<int64_t> remote_members;
  // Whether the members gathered are consistent with the groups' hashes and
  // sizes (false: entries disagree, e.g. ranks the trace lacks).
  bool consistent = true;
};

// The instances, sorted by id, then occurrence, then lowest member. Traces
// before version 5 have no groups: the result is empty (membership_recorded
// says which).
std::vector<CommInstance> communicator_instances(const MergedTrace &trace);
bool membership_recorded(uint16_t format_version);
// The hash a CommInfo's `group` stores for a group of these world ranks (-1:
// a process outside the trace), §7.6.1: what tells apart the instances that
// share an id and an occurrence.
uint32_t group_hash_of(const std::vector<int64_t> &members);

} // namespace pilgrim
