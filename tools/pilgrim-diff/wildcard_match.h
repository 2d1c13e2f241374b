// --relaxed for wildcard receives (tools/pilgrim-diff/README.md, "Wildcard
// receives"): which message a receive or probe with MPI_ANY_SOURCE or
// MPI_ANY_TAG matches depends on the run, so the status it returns may
// describe another message in each trace. Elsewhere statuses stay exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "pilgrim/decoded_call.h"

namespace pilgrim::diff {

// What a receive left open.
struct Wildcards {
  bool source = false; // MPI_ANY_SOURCE
  bool tag = false;    // MPI_ANY_TAG
  bool any() const { return source || tag; }
  Wildcards operator|(Wildcards o) const { return {source || o.source, tag || o.tag}; }
};

// Along one rank's calls, in order: the wildcards of the receive each
// request and each matched message came from. Request and message ids are
// reused, so an id means what its last creation before the call made.
class WildcardTracker {
public:
  // The wildcards behind status `element` of Status parameter `param` of
  // `call`: the call's own source and tag (MPI_Recv, MPI_Probe,
  // MPI_Sendrecv, ...), the probe that matched its message (MPI_Mrecv), or
  // the receive that created the request it completes (MPI_Wait*,
  // MPI_Test*, MPI_Request_get_status; an MPI_Irecv, MPI_Recv_init or
  // MPI_Imrecv).
  Wildcards of_status(const Call &call, size_t param, size_t element) const;
  // `call` was made: the requests and messages it creates take its wildcards.
  void apply(const Call &call);

private:
  std::unordered_map<uint64_t, Wildcards> requests_, messages_; // by user handle id
};

// Whether Status parameter `param` of `a` and of `b` (the same function)
// are equal under --relaxed: element by element, equal; or a status that
// kept source and tag (a wildcard receive) against one that kept only the
// count (the same receive naming its source: a proxy made with
// --deterministic), with equal counts; or, where the receive had a
// wildcard (in either trace), two full statuses that differ only in the
// source (MPI_ANY_SOURCE), the tag (MPI_ANY_TAG) and the count (another
// message may have another size).
bool relaxed_statuses_equal(const Call &a, const Call &b, size_t param, const WildcardTracker &wa,
                            const WildcardTracker &wb);

} // namespace pilgrim::diff
