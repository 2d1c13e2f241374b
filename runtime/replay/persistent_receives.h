// Persistent wildcard receives under order replay. A persistent request's
// sender and tag are fixed at MPI_Recv_init, but each start of a
// MPI_ANY_SOURCE / MPI_ANY_TAG one may match another message. Replay
// therefore remembers such requests when they are created, and at each
// start whose recorded match it knows posts a receive of its own, with the
// recorded sender and tag, into the request's buffer: the shadow. The
// application keeps its request handle; every call that completes,
// inspects, cancels or frees it (replay_calls.h) works on the shadow while
// there is one, and the request is then inactive again, as MPI leaves a
// completed persistent request.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace pilgrim::rt {

// What MPI_Recv_init (or MPI_Recv_init_c) named.
struct PersistentReceive {
  void *buf = nullptr;
  MPI_Count count = 0;
  bool large = false; // made by MPI_Recv_init_c
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int source = 0, tag = 0;
  MPI_Comm comm = MPI_COMM_NULL;
};

// After MPI_Recv_init made `request`: remembered if it names a wildcard.
void remember_receive(MPI_Request request, const PersistentReceive &r);

// Starts `*request` (MPI_Start): a remembered wildcard receive whose
// recorded sender and tag are known (`source`, `tag`: -1 where not) gets a
// shadow matching them; any other request is started by MPI.
int start_request(MPI_Request *request, int64_t source, int64_t tag);

// The shadow serving `request`, or nullptr (none: the request is MPI's own).
MPI_Request *shadow_of(MPI_Request request);
// Whether any request has a shadow now (the fast way out of the above).
bool any_shadow();
// The shadow of `request` completed (or was freed): the request is inactive.
void end_shadow(MPI_Request request);
// `request` is being freed: forgets it (and frees its shadow, whose receive
// then completes unseen, as a freed active request's does).
void forget_request(MPI_Request request);

} // namespace pilgrim::rt
