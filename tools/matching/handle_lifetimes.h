// Communicators and datatypes a rank creates and never frees
// (docs/CHECK.md, "Warnings"): legal, MPI_Finalize cleans them up, but a
// replay that creates them in a loop grows.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "message_matching.h"
#include "p2p_operations.h"

namespace pilgrim {

class HandleLifetimes : public TraceWalkObserver {
public:
  void call(const Call &call, CallPlace where, const CommResolver &resolver) override;
  void rank_done(uint32_t rank) override;
  std::vector<MatchFinding> findings;

private:
  struct Created {
    CallPlace where;
    const char *function = "";
  };
  // By kind (communicator, datatype), then user id.
  std::map<HandleKind, std::map<uint64_t, Created>> live_;
};

} // namespace pilgrim
