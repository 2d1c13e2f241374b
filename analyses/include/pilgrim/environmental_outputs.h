// Outputs that come from the environment a program runs in, not from what
// it did: the host's name, the MPI library's version text, the command line
// in MPI_INFO_ENV, the hints an MPI library adds to the infos it returns,
// the library's own handle values (MPI_Comm_f2c returns a pointer in Open
// MPI), the base of a zero-size window (NULL or not, at random, in Open
// MPI), the paths of files (a proxy opens its own, in a scratch directory).
// A proxy cannot reproduce them; pilgrim-diff compares them only with
// --strict. The order of the neighbors MPI collected for a distributed
// graph is the environment's too, but not the neighbors: those are compared
// in any order (unordered()). THE LIST IS HERE, in one table keyed by
// function and parameter, for every tool (tools/pilgrim-diff/README.md
// lists it for users).
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>

#include "pilgrim/decoded_call.h"

namespace pilgrim {

// When a table entry applies.
enum class EnvironmentalWhen : uint8_t {
  Always,
  // The call's Info parameter holds contents MPI filled in: MPI_INFO_ENV, an
  // info MPI returned (MPI_Comm_get_info, MPI_Info_create_env, ...), or a
  // duplicate of one. Its keys and values are the library's and the
  // environment's; a program reading them reads environmental values, and
  // the keys and lengths it passes back are derived from them.
  InfoFromMpi,
  // The call's `size` parameter is 0 (memory MPI allocates: a zero-size
  // block may be NULL or not).
  ZeroSize,
  // The call's communicator is a distributed graph made with
  // MPI_Dist_graph_create: the library collects the edges other processes
  // gave in the order their messages arrive (Open MPI), so the order of the
  // neighbors it lists varies from run to run; which they are does not.
  // Not left out: compared in any order (unordered()).
  GeneralDistGraph,
};

struct EnvironmentalOutput {
  const char *function;
  // A parameter's name (as in the function table), "return" for the return
  // value, "*" for every parameter but handles.
  const char *parameter;
  EnvironmentalWhen when;
};

extern const EnvironmentalOutput kEnvironmentalOutputs[];
extern const size_t kEnvironmentalOutputCount;

// Follows one rank's calls in order and says which of a call's values are
// environmental. Call apply() after each call (what it created matters to
// later calls: infos MPI filled in).
class EnvironmentalOutputs {
public:
  // Parameter `param` of `call`, or its return value when `param` is -1.
  bool environmental(const Call &call, int param) const;
  // Parameter `param` of `call` is an array whose order is the
  // environment's, not its elements: compare them in any order.
  bool unordered(const Call &call, int param) const;
  void apply(const Call &call);

private:
  bool info_from_mpi(const Call &call) const;
  bool general_dist_graph(const Call &call) const;
  // The table entry that applies to parameter `param` of `call`, or null.
  const EnvironmentalOutput *applies(const Call &call, int param) const;
  std::set<uint64_t> infos_;  // user info ids whose contents MPI filled in
  std::set<uint64_t> graphs_; // user comm ids made by MPI_Dist_graph_create
};

} // namespace pilgrim
