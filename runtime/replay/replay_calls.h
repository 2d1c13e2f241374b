// The matching functions as order replay calls them (pilgrim/
// match_functions.h): the generated wrapper of each calls replay_<name>
// instead of PMPI_<name> while replaying() (replay_flag.h), with the
// same arguments. Each takes the next event of the cursor (replay_cursor.h) and makes MPI
// do what the recorded run did:
//  - a receive or probe that names MPI_ANY_SOURCE or MPI_ANY_TAG names the
//    recorded sender and tag instead (a nonblocking receive, the ones its
//    completion recorded), so that it matches the recorded message: MPI's
//    order between two messages of one sender and tag is their sending
//    order, so the forced match is that message, with its buffer, status
//    and count;
//  - a completion (MPI_Waitany, _Waitsome, _Testany, _Testsome) waits for
//    the recorded requests and returns their indices;
//  - a poll that failed returns "not yet" and completes nothing: it drives
//    MPI's progress with an MPI_Iprobe on the tracer's private
//    communicator, on a tag nothing is sent with, so that messages keep
//    moving; a poll that succeeded waits for what it completed.
//  - a start of a persistent receive that names a wildcard
//    (MPI_Recv_init with MPI_ANY_SOURCE or MPI_ANY_TAG) posts a receive of
//    replay's own with the recorded sender and tag (persistent_receives.h);
//    MPI_Wait, MPI_Waitall, MPI_Cancel and MPI_Request_free, which are no
//    events, come here too, to serve such a request by its shadow.
// Waits are MPI_Test (MPI_Iprobe, ...) loops that end the run with one
// line when nothing came within PILGRIM_REPLAY_WATCHDOG seconds.
#pragma once

#include <mpi.h>

// The functions, once: X(name, (parameters), (arguments)) for each; the
// declarations below, and the definitions a self-contained proxy of
// pilgrim-proxygen --order makes of the MPI functions themselves
// (proxygen/order_replay.cpp), expand it.
#define PILGRIM_REPLAY_FUNCTIONS_PLAIN(X)                                                           \
  X(MPI_Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,    \
               MPI_Status *status),                                                                \
    (buf, count, datatype, source, tag, comm, status))                                             \
  X(MPI_Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,   \
                MPI_Request *request),                                                             \
    (buf, count, datatype, source, tag, comm, request))                                            \
  X(MPI_Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,            \
                   int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,   \
                   int recvtag, MPI_Comm comm, MPI_Status *status),                                \
    (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,   \
     comm, status))                                                                                \
  X(MPI_Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,     \
                           int source, int recvtag, MPI_Comm comm, MPI_Status *status),            \
    (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))                          \
  X(MPI_Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag,              \
                    MPI_Comm comm, MPI_Request *request),                                          \
    (buf, count, datatype, source, tag, comm, request))                                            \
  X(MPI_Start, (MPI_Request *request), (request))                                                  \
  X(MPI_Startall, (int count, MPI_Request array_of_requests[]), (count, array_of_requests))        \
  X(MPI_Wait, (MPI_Request *request, MPI_Status *status), (request, status))                       \
  X(MPI_Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]),     \
    (count, array_of_requests, array_of_statuses))                                                 \
  X(MPI_Cancel, (MPI_Request *request), (request))                                                 \
  X(MPI_Request_free, (MPI_Request *request), (request))                                           \
  X(MPI_Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status),                           \
    (source, tag, comm, status))                                                                   \
  X(MPI_Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status),    \
    (source, tag, comm, message, status))                                                          \
  X(MPI_Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status),               \
    (source, tag, comm, flag, status))                                                             \
  X(MPI_Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,             \
                  MPI_Status *status),                                                             \
    (source, tag, comm, flag, message, status))                                                    \
  X(MPI_Test, (MPI_Request *request, int *flag, MPI_Status *status), (request, flag, status))      \
  X(MPI_Testall, (int count, MPI_Request array_of_requests[], int *flag,                           \
                  MPI_Status array_of_statuses[]),                                                 \
    (count, array_of_requests, flag, array_of_statuses))                                           \
  X(MPI_Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag,               \
                  MPI_Status *status),                                                             \
    (count, array_of_requests, index, flag, status))                                               \
  X(MPI_Testsome, (int incount, MPI_Request array_of_requests[], int *outcount,                    \
                   int array_of_indices[], MPI_Status array_of_statuses[]),                        \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))                   \
  X(MPI_Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status),     \
    (count, array_of_requests, index, status))                                                     \
  X(MPI_Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount,                    \
                   int array_of_indices[], MPI_Status array_of_statuses[]),                        \
    (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))                   \
  X(MPI_Request_get_status, (MPI_Request request, int *flag, MPI_Status *status),                  \
    (request, flag, status))                                                                       \
  X(MPI_Win_test, (MPI_Win win, int *flag), (win, flag))

// The large-count forms of MPI 4.
#if MPI_VERSION >= 4
#define PILGRIM_REPLAY_FUNCTIONS_LARGE(X)                                                           \
  X(MPI_Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,           \
                 MPI_Comm comm, MPI_Status *status),                                               \
    (buf, count, datatype, source, tag, comm, status))                                             \
  X(MPI_Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,          \
                  MPI_Comm comm, MPI_Request *request),                                            \
    (buf, count, datatype, source, tag, comm, request))                                            \
  X(MPI_Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,   \
                     int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,       \
                     int source, int recvtag, MPI_Comm comm, MPI_Status *status),                  \
    (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,   \
     comm, status))                                                                                \
  X(MPI_Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest,          \
                             int sendtag, int source, int recvtag, MPI_Comm comm,                  \
                             MPI_Status *status),                                                  \
    (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))                          \
  X(MPI_Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,      \
                      MPI_Comm comm, MPI_Request *request),                                        \
    (buf, count, datatype, source, tag, comm, request))
#else
#define PILGRIM_REPLAY_FUNCTIONS_LARGE(X)
#endif

#define PILGRIM_REPLAY_FUNCTIONS(X)                                                                 \
  PILGRIM_REPLAY_FUNCTIONS_PLAIN(X)                                                                \
  PILGRIM_REPLAY_FUNCTIONS_LARGE(X)

namespace pilgrim::rt {

#define PILGRIM_REPLAY_DECLARE(name, params, args) int replay_##name params;
PILGRIM_REPLAY_FUNCTIONS(PILGRIM_REPLAY_DECLARE)
#undef PILGRIM_REPLAY_DECLARE

} // namespace pilgrim::rt
