// The archive's communicators: MPI_COMM_WORLD (OTF2 comm 0), MPI_COMM_SELF
// (1) and every user communicator instance of the run (2 + its index in
// TraceFile::communicators()), and, per rank, which of them a communicator
// handle names at each call of the rank's walk.
#pragma once

#include <cstdint>
#include <otf2/OTF2_GeneralDefinitions.h>
#include <unordered_map>
#include <vector>

#include "pilgrim/reader.h"

namespace pilgrim::exporter {

constexpr OTF2_CommRef kCommWorld = 0;
constexpr OTF2_CommRef kCommSelf = 1;
inline OTF2_CommRef comm_ref_of_instance(size_t instance) {
  return static_cast<OTF2_CommRef>(2 + instance);
}

// One rank's communicator handles as its walk goes: a user id names the
// instance its latest creation made (the rank's COMMS table entries in
// creation order, docs/FORMAT.md §7.7, matched to the run's instances).
class RankCommunicators {
public:
  RankCommunicators(const reader::TraceFile &trace, const std::vector<CommInstance> &instances,
                    uint32_t rank);
  // The OTF2 communicator `handle` names at the current call;
  // OTF2_UNDEFINED_COMM when unknown (a trace before version 5, a table that
  // does not match the walk).
  OTF2_CommRef comm(const HandleRef &handle) const;
  // `call`, just made, takes effect: the ids it creates name their next
  // instance.
  void apply(const Call &call);

private:
  struct Slot {
    std::vector<OTF2_CommRef> refs; // per COMMS entry of this id, in table order
    uint64_t offset = 0;            // 1: refs[0] applies before the first creation
    uint64_t created = 0;           // creations applied so far
    bool consistent = true;
  };
  std::unordered_map<uint64_t, Slot> slots_;
  std::unordered_map<const DecodedCall *, std::vector<uint64_t>> created_;
};

} // namespace pilgrim::exporter
