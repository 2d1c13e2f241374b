#include "pilgrim/poll_call.h"

#include <string_view>

namespace pilgrim {

PollOutcome poll_outcome(const DecodedCall &call, const char **flag_param) {
  if (flag_param)
    *flag_param = nullptr;
  if (!call.function || !call.function->name)
    return PollOutcome::NotPoll;
  const std::string_view name = call.function->name;
  const bool some = name == "MPI_Testsome";
  const char *flag = some ? "outcount" : nullptr;
  if (name == "MPI_Test" || name == "MPI_Testany" || name == "MPI_Testall" ||
      name == "MPI_Iprobe" || name == "MPI_Improbe" || name == "MPI_Win_test" ||
      name == "MPI_Request_get_status")
    flag = "flag";
  if (!flag)
    return PollOutcome::NotPoll;
  for (size_t p = 0; p < call.params.size(); ++p) {
    const char *pn = call.function->params[p].name;
    if (!pn || std::string_view(pn) != flag)
      continue;
    const DecodedParam &dp = call.params[p];
    if (!dp.has_out || dp.out.null || dp.out.elements.size() != 1)
      return PollOutcome::NotPoll;
    if (flag_param)
      *flag_param = flag;
    const int64_t v = dp.out.elements[0].integer;
    // MPI_Testsome's MPI_UNDEFINED (no active request) is negative.
    const bool found = some ? v > 0 : v != 0;
    return found ? PollOutcome::Succeeded : PollOutcome::Failed;
  }
  return PollOutcome::NotPoll;
}

} // namespace pilgrim
