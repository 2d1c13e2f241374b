// One matching event (pilgrim/match_events.h lists a rank's): what one call
// of a matching function (pilgrim/match_functions.h) chose, as order replay
// repeats it. Standard C++ only: proxies of pilgrim-proxygen --order compile
// this header into themselves (runtime/replay/README.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pilgrim {

struct MatchEvent {
  uint64_t call = 0;    // the call's position in the rank's walk (from 0)
  std::string function; // its MPI name
  // A receive or probe: whether it named MPI_ANY_SOURCE / MPI_ANY_TAG, and
  // the sender (its rank in the call's communicator) and tag it matched;
  // -1 where the trace does not say (a status the application ignored, a
  // request never completed, a probe or poll that failed).
  bool receive = false;
  bool any_source = false, any_tag = false;
  int64_t source = -1, tag = -1;
  // A poll: whether it succeeded (true for every other call).
  bool flag = true;
  // MPI_Waitany, MPI_Testany: the index returned; MPI_Waitsome,
  // MPI_Testsome: the indices, in the order returned. `undefined`: the call
  // returned MPI_UNDEFINED (no active request).
  std::vector<int64_t> indices;
  bool undefined = false;
};

} // namespace pilgrim
