// Whether the ranks of each communicator make the same collective calls in
// the same order with the same root (docs/CHECK.md, "Collectives"). The
// first rank of a communicator walked sets the sequence the others are
// compared with, so memory follows one rank's collectives per communicator.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "comm_resolver.h"
#include "message_matching.h"
#include "p2p_operations.h"

namespace pilgrim {

class CollectiveAgreement : public TraceWalkObserver {
public:
  explicit CollectiveAgreement(const CommDirectory &comms) : comms_(comms) {}
  void call(const Call &call, CallPlace where, const CommResolver &resolver) override;
  void rank_done(uint32_t) override {}
  // After every rank: the members that made fewer collectives on a
  // communicator than its first member did.
  void finish();
  std::vector<MatchFinding> findings;

private:
  struct Collective {
    std::string function; // without "_c"
    int64_t root = -1;    // rank in the communicator; -1 none
    CallPlace where;
  };
  struct Sequence {
    uint32_t rank = 0; // the rank whose sequence it is
    std::vector<Collective> calls;
  };
  struct Progress {
    uint64_t next = 0;     // position in the reference sequence
    bool diverged = false; // reported: stop comparing
    CallPlace last;        // the rank's last collective on it
    bool any = false;
  };
  const CommDirectory &comms_;
  std::map<uint64_t, Sequence> reference_;                     // by communicator key
  std::map<std::pair<uint64_t, uint32_t>, Progress> progress_; // by (communicator, rank)
};

} // namespace pilgrim
