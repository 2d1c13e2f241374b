// Polls: MPI_Test/Testany/Testall/Iprobe/Improbe, MPI_Testsome and
// MPI_Win_test (the end of an exposure epoch), whose failed calls a
// completion loop repeats a number of times that depends on the run (the
// Pilgrim paper §3.3.4). proxygen turns such loops back into loops;
// pilgrim-diff --relaxed skips the failed polls.
#pragma once

#include "pilgrim/signature_decoder.h"

namespace pilgrim {

enum class PollOutcome {
  NotPoll,   // another function, or its flag was not recorded
  Failed,    // flag = 0 (MPI_Testsome: outcount = 0 or MPI_UNDEFINED)
  Succeeded, // the poll that ended the loop
};

// `flag_param`, when given, gets the name of the parameter that says it
// ("flag" or "outcount"), or nullptr for NotPoll.
PollOutcome poll_outcome(const DecodedCall &call, const char **flag_param = nullptr);

} // namespace pilgrim
