// Which communicator instance a communicator handle names at one call of a
// rank's walk, and who its members are (docs/CHECK.md, "Matching
// semantics"). Follows docs/FORMAT.md §7.7: the k-th creation of user id u
// along the walk selects the rank's k-th COMMS entry of u (one entry more
// than creations: the first applies from the start), and that entry is one
// instance of TraceFile::communicators() (§7.6.1).
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "message_matching.h"
#include "pilgrim/communicator_instances.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim {

namespace reader {
class TraceFile;
} // namespace reader

// The communicators of a whole trace: world and the recorded instances.
class CommDirectory {
public:
  explicit CommDirectory(const reader::TraceFile &trace);
  const std::vector<CommInstance> &instances() const { return instances_; }
  // `comm`'s name in findings: "MPI_COMM_WORLD", "MPI_COMM_SELF", "comm#3".
  std::string name(uint64_t comm) const;
  // The world rank of rank `peer` of the group the caller (world rank
  // `caller`) talks to on `comm`: its own group for an intracommunicator, the
  // remote group for an intercommunicator. -1 when unknown.
  int64_t peer_world(uint64_t comm, int64_t caller, int64_t peer) const;
  // The world ranks of the caller's own group on `comm`; empty when unknown.
  std::vector<int64_t> local_group(uint64_t comm, int64_t caller) const;
  bool inter(uint64_t comm) const;
  uint32_t nranks() const { return nranks_; }
  // The instance of the rank's `occurrence`-th table entry `c` of its id and
  // groups (§7.6.1); kCommUnknown when none.
  uint64_t instance_of(const CommInfo &c, uint32_t occurrence, uint32_t rank) const;

private:
  std::vector<CommInstance> instances_;
  std::vector<std::pair<uint32_t, uint32_t>> hashes_; // each instance's groups' hashes
  uint32_t nranks_ = 0;
};

// One rank's walk: call comm() for the handles of a call, then applied()
// after it.
class CommResolver {
public:
  CommResolver(const reader::TraceFile &trace, const CommDirectory &directory, uint32_t rank);
  // The key of the communicator `h` names at the current call.
  uint64_t comm(const HandleRef &h) const;
  // The current call (made once) takes effect: its creations move their ids
  // to their next entry.
  void applied(const Call &call);

private:
  struct Slot {
    std::vector<uint64_t> entries; // instance keys of this id's entries, in table order
    uint64_t offset = 0;           // 1: entries[0] applies before the first creation
    bool consistent = true;
    uint64_t created = 0;
  };
  std::map<uint64_t, Slot> slots_;
};

} // namespace pilgrim
