#include "replay_calls.h"

#include "persistent_receives.h"
#include "replay_cursor.h"

#include <sched.h>

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace pilgrim::rt {

namespace {

// The tag of the progress probes on the tracer's private communicator:
// nothing is ever sent with it (docs/ARCHITECTURE.md, the private
// communicator's tags).
constexpr int kProgressTag = 0x5052;

void progress() {
  int flag = 0;
  PMPI_Iprobe(MPI_ANY_SOURCE, kProgressTag, replay_cursor().private_comm(), &flag,
              MPI_STATUS_IGNORE);
}

double seconds() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Calls `poll` until it says done, as MPI_Wait spins on MPI_Test; past the
// watchdog, ends the run naming `what`. Yields the core after the first
// thousand polls: an oversubscribed rank leaves it to the sender.
template <class Poll> int wait_until(const MatchEvent &e, const std::string &what, Poll poll) {
  const double start = seconds();
  for (long spins = 0;; ++spins) {
    bool done = false;
    const int rc = poll(done);
    if (rc != MPI_SUCCESS || done)
      return rc;
    if (spins > 1000)
      sched_yield();
    if ((spins & 255) == 0 && seconds() - start > replay_cursor().watchdog_s()) {
      char limit[32];
      std::snprintf(limit, sizeof limit, "%g", replay_cursor().watchdog_s());
      replay_cursor().diverge(&e, what + " did not come within " + limit + " s (" +
                                      replay_cursor().watchdog_setting() + ")");
    }
  }
}

// MPI_Test of `request`, or of the shadow serving it (persistent_receives.h).
int test_request(MPI_Request *request, int *flag, MPI_Status *status) {
  MPI_Request *shadow = shadow_of(*request);
  if (!shadow)
    return PMPI_Test(request, flag, status);
  const int rc = PMPI_Test(shadow, flag, status);
  if (*flag)
    end_shadow(*request);
  return rc;
}

int wait_request(const MatchEvent &e, MPI_Request *request, MPI_Status *status,
                 const std::string &what) {
  return wait_until(e, what, [&](bool &done) {
    int flag = 0;
    const int rc = test_request(request, &flag, status);
    done = flag != 0;
    return rc;
  });
}

// The recorded value where the program named the wildcard and the trace
// knows what matched; else the program's own.
int forced(int given, int wildcard, int64_t recorded) {
  return given == wildcard && recorded >= 0 ? static_cast<int>(recorded) : given;
}

std::string message_text(int source, int tag) {
  return "the recorded message (source " + std::to_string(source) + ", tag " +
         (tag == MPI_ANY_TAG ? std::string("any") : std::to_string(tag)) + ")";
}

int index_in(const MatchEvent &e, int64_t i, int count) {
  if (i < 0 || i >= count)
    replay_cursor().diverge(&e, "the trace's index " + std::to_string(i) +
                                    " is outside the program's " + std::to_string(count) +
                                    " requests");
  return static_cast<int>(i);
}

MPI_Status *status_at(MPI_Status *statuses, int i) {
  return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

// MPI_Waitsome/MPI_Testsome that completed something: the recorded indices.
int wait_some(const MatchEvent &e, int incount, MPI_Request requests[], int *outcount,
              int indices[], MPI_Status statuses[]) {
  int n = 0;
  for (int64_t k : e.indices) {
    const int i = index_in(e, k, incount);
    const int rc = wait_request(e, &requests[i], status_at(statuses, n),
                                "request " + std::to_string(i));
    if (rc != MPI_SUCCESS)
      return rc;
    indices[n++] = i;
  }
  *outcount = n;
  return MPI_SUCCESS;
}

} // namespace

namespace {

// MPI's receives by count type: int, or MPI_Count for the large-count forms
// of MPI 4.
int pmpi_recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
  return PMPI_Recv(buf, count, dt, source, tag, comm, status);
}
int pmpi_irecv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return PMPI_Irecv(buf, count, dt, source, tag, comm, request);
}
int pmpi_isend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return PMPI_Isend(buf, count, dt, dest, tag, comm, request);
}
int pmpi_sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Status *status) {
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                       source, recvtag, comm, status);
}
int pmpi_sendrecv_replace(void *buf, int count, MPI_Datatype dt, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return PMPI_Sendrecv_replace(buf, count, dt, dest, sendtag, source, recvtag, comm, status);
}
#if MPI_VERSION >= 4
int pmpi_recv(void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
              MPI_Status *status) {
  return PMPI_Recv_c(buf, count, dt, source, tag, comm, status);
}
int pmpi_irecv(void *buf, MPI_Count count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
               MPI_Request *request) {
  return PMPI_Irecv_c(buf, count, dt, source, tag, comm, request);
}
int pmpi_isend(const void *buf, MPI_Count count, MPI_Datatype dt, int dest, int tag,
               MPI_Comm comm, MPI_Request *request) {
  return PMPI_Isend_c(buf, count, dt, dest, tag, comm, request);
}
int pmpi_sendrecv(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype,
                  int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return PMPI_Sendrecv_c(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
}
int pmpi_sendrecv_replace(void *buf, MPI_Count count, MPI_Datatype dt, int dest, int sendtag,
                          int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return PMPI_Sendrecv_replace_c(buf, count, dt, dest, sendtag, source, recvtag, comm, status);
}
#endif

template <class Count>
int recv(const char *function, void *buf, Count count, MPI_Datatype datatype, int source,
         int tag, MPI_Comm comm, MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next(function);
  const int s = forced(source, MPI_ANY_SOURCE, e.source), t = forced(tag, MPI_ANY_TAG, e.tag);
  if (s == source && t == tag)
    return pmpi_recv(buf, count, datatype, source, tag, comm, status);
  MPI_Request r = MPI_REQUEST_NULL;
  const int rc = pmpi_irecv(buf, count, datatype, s, t, comm, &r);
  return rc != MPI_SUCCESS ? rc : wait_request(e, &r, status, message_text(s, t));
}

template <class Count>
int irecv(const char *function, void *buf, Count count, MPI_Datatype datatype, int source,
          int tag, MPI_Comm comm, MPI_Request *request) {
  const MatchEvent &e = replay_cursor().next(function);
  return pmpi_irecv(buf, count, datatype, forced(source, MPI_ANY_SOURCE, e.source),
                    forced(tag, MPI_ANY_TAG, e.tag), comm, request);
}

template <class Count>
int sendrecv(const char *function, const void *sendbuf, Count sendcount, MPI_Datatype sendtype,
             int dest, int sendtag, void *recvbuf, Count recvcount, MPI_Datatype recvtype,
             int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next(function);
  const int s = forced(source, MPI_ANY_SOURCE, e.source),
            t = forced(recvtag, MPI_ANY_TAG, e.tag);
  if (s == source && t == recvtag)
    return pmpi_sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                         recvtype, source, recvtag, comm, status);
  MPI_Request r[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int rc = pmpi_irecv(recvbuf, recvcount, recvtype, s, t, comm, &r[0]);
  if (rc == MPI_SUCCESS)
    rc = pmpi_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, &r[1]);
  if (rc == MPI_SUCCESS)
    rc = wait_request(e, &r[0], status, message_text(s, t));
  if (rc == MPI_SUCCESS)
    rc = wait_request(e, &r[1], MPI_STATUS_IGNORE, "the send to rank " + std::to_string(dest));
  return rc;
}

template <class Count>
int sendrecv_replace(const char *function, void *buf, Count count, MPI_Datatype datatype,
                     int dest, int sendtag, int source, int recvtag, MPI_Comm comm,
                     MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next(function);
  return pmpi_sendrecv_replace(buf, count, datatype, dest, sendtag,
                               forced(source, MPI_ANY_SOURCE, e.source),
                               forced(recvtag, MPI_ANY_TAG, e.tag), comm, status);
}

} // namespace

int replay_MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Status *status) {
  return recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

int replay_MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                     MPI_Comm comm, MPI_Request *request) {
  return irecv("MPI_Irecv", buf, count, datatype, source, tag, comm, request);
}

int replay_MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                        int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                        int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}

int replay_MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest,
                                int sendtag, int source, int recvtag, MPI_Comm comm,
                                MPI_Status *status) {
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

int replay_MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Request *request) {
  const int rc = PMPI_Recv_init(buf, count, datatype, source, tag, comm, request);
  if (rc == MPI_SUCCESS)
    remember_receive(*request, {buf, count, false, datatype, source, tag, comm});
  return rc;
}

#if MPI_VERSION >= 4
int replay_MPI_Recv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                      MPI_Comm comm, MPI_Status *status) {
  return recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

int replay_MPI_Irecv_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                       MPI_Comm comm, MPI_Request *request) {
  return irecv("MPI_Irecv_c", buf, count, datatype, source, tag, comm, request);
}

int replay_MPI_Sendrecv_c(const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                          int dest, int sendtag, void *recvbuf, MPI_Count recvcount,
                          MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                          MPI_Status *status) {
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                  recvcount, recvtype, source, recvtag, comm, status);
}

int replay_MPI_Sendrecv_replace_c(void *buf, MPI_Count count, MPI_Datatype datatype, int dest,
                                  int sendtag, int source, int recvtag, MPI_Comm comm,
                                  MPI_Status *status) {
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source,
                          recvtag, comm, status);
}

int replay_MPI_Recv_init_c(void *buf, MPI_Count count, MPI_Datatype datatype, int source,
                           int tag, MPI_Comm comm, MPI_Request *request) {
  const int rc = PMPI_Recv_init_c(buf, count, datatype, source, tag, comm, request);
  if (rc == MPI_SUCCESS)
    remember_receive(*request, {buf, count, true, datatype, source, tag, comm});
  return rc;
}
#endif

int replay_MPI_Start(MPI_Request *request) {
  const MatchEvent &e = replay_cursor().next("MPI_Start");
  return start_request(request, e.receive ? e.source : -1, e.receive ? e.tag : -1);
}

int replay_MPI_Startall(int count, MPI_Request array_of_requests[]) {
  for (int i = 0; i < count; ++i) {
    const MatchEvent &e = replay_cursor().next("MPI_Startall");
    const int rc =
        start_request(&array_of_requests[i], e.receive ? e.source : -1, e.receive ? e.tag : -1);
    if (rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

int replay_MPI_Wait(MPI_Request *request, MPI_Status *status) {
  MPI_Request *shadow = shadow_of(*request);
  if (!shadow)
    return PMPI_Wait(request, status);
  const int rc = PMPI_Wait(shadow, status);
  end_shadow(*request);
  return rc;
}

int replay_MPI_Waitall(int count, MPI_Request array_of_requests[],
                       MPI_Status array_of_statuses[]) {
  if (!any_shadow())
    return PMPI_Waitall(count, array_of_requests, array_of_statuses);
  // MPI waits for the shadows in the requests' places; a shadowed request
  // stays the application's (inactive), any other takes what MPI left.
  std::vector<MPI_Request> served(array_of_requests, array_of_requests + count);
  std::vector<bool> shadowed(static_cast<size_t>(count), false);
  for (int i = 0; i < count; ++i)
    if (MPI_Request *shadow = shadow_of(array_of_requests[i])) {
      served[static_cast<size_t>(i)] = *shadow;
      shadowed[static_cast<size_t>(i)] = true;
    }
  const int rc = PMPI_Waitall(count, served.data(), array_of_statuses);
  for (int i = 0; i < count; ++i) {
    if (shadowed[static_cast<size_t>(i)])
      end_shadow(array_of_requests[i]);
    else
      array_of_requests[i] = served[static_cast<size_t>(i)];
  }
  return rc;
}

int replay_MPI_Cancel(MPI_Request *request) {
  MPI_Request *shadow = shadow_of(*request);
  return PMPI_Cancel(shadow ? shadow : request);
}

int replay_MPI_Request_free(MPI_Request *request) {
  forget_request(*request);
  return PMPI_Request_free(request);
}

namespace {

// A probe that found the recorded message, as MPI_Probe would.
int probe_for(const MatchEvent &e, int source, int tag, MPI_Comm comm, MPI_Status *status) {
  const int s = forced(source, MPI_ANY_SOURCE, e.source), t = forced(tag, MPI_ANY_TAG, e.tag);
  return wait_until(e, message_text(s, t), [&](bool &done) {
    int flag = 0;
    const int rc = PMPI_Iprobe(s, t, comm, &flag, status);
    done = flag != 0;
    return rc;
  });
}

int mprobe_for(const MatchEvent &e, int source, int tag, MPI_Comm comm, MPI_Message *message,
               MPI_Status *status) {
  const int s = forced(source, MPI_ANY_SOURCE, e.source), t = forced(tag, MPI_ANY_TAG, e.tag);
  return wait_until(e, message_text(s, t), [&](bool &done) {
    int flag = 0;
    const int rc = PMPI_Improbe(s, t, comm, &flag, message, status);
    done = flag != 0;
    return rc;
  });
}

} // namespace

int replay_MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status) {
  return probe_for(replay_cursor().next("MPI_Probe"), source, tag, comm, status);
}

int replay_MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message,
                      MPI_Status *status) {
  return mprobe_for(replay_cursor().next("MPI_Mprobe"), source, tag, comm, message, status);
}

int replay_MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Iprobe");
  if (!e.flag) {
    progress();
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = probe_for(e, source, tag, comm, status);
  *flag = 1;
  return rc;
}

int replay_MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
                       MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Improbe");
  if (!e.flag) // MPI's own "nothing there", from a tag nothing is sent with
    return PMPI_Improbe(MPI_ANY_SOURCE, kProgressTag, replay_cursor().private_comm(), flag,
                        message, status);
  const int rc = mprobe_for(e, source, tag, comm, message, status);
  *flag = 1;
  return rc;
}

int replay_MPI_Test(MPI_Request *request, int *flag, MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Test");
  if (!e.flag) {
    progress();
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = wait_request(e, request, status, "the request");
  *flag = 1;
  return rc;
}

int replay_MPI_Testall(int count, MPI_Request array_of_requests[], int *flag,
                       MPI_Status array_of_statuses[]) {
  const MatchEvent &e = replay_cursor().next("MPI_Testall");
  if (!e.flag) {
    progress();
    *flag = 0;
    return MPI_SUCCESS;
  }
  for (int i = 0; i < count; ++i) {
    const int rc = wait_request(e, &array_of_requests[i], status_at(array_of_statuses, i),
                                "request " + std::to_string(i));
    if (rc != MPI_SUCCESS)
      return rc;
  }
  *flag = 1;
  return MPI_SUCCESS;
}

int replay_MPI_Testany(int count, MPI_Request array_of_requests[], int *index, int *flag,
                       MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Testany");
  if (!e.flag) {
    progress();
    *flag = 0;
    *index = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  if (e.undefined || e.indices.empty())
    return PMPI_Testany(count, array_of_requests, index, flag, status);
  const int i = index_in(e, e.indices[0], count);
  const int rc = wait_request(e, &array_of_requests[i], status, "request " + std::to_string(i));
  *index = i;
  *flag = 1;
  return rc;
}

int replay_MPI_Testsome(int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[]) {
  const MatchEvent &e = replay_cursor().next("MPI_Testsome");
  if (e.undefined)
    return PMPI_Testsome(incount, array_of_requests, outcount, array_of_indices,
                         array_of_statuses);
  if (!e.flag) {
    progress();
    *outcount = 0;
    return MPI_SUCCESS;
  }
  return wait_some(e, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int replay_MPI_Waitany(int count, MPI_Request array_of_requests[], int *index,
                       MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Waitany");
  if (e.undefined || e.indices.empty())
    return PMPI_Waitany(count, array_of_requests, index, status);
  const int i = index_in(e, e.indices[0], count);
  const int rc = wait_request(e, &array_of_requests[i], status, "request " + std::to_string(i));
  *index = i;
  return rc;
}

int replay_MPI_Waitsome(int incount, MPI_Request array_of_requests[], int *outcount,
                        int array_of_indices[], MPI_Status array_of_statuses[]) {
  const MatchEvent &e = replay_cursor().next("MPI_Waitsome");
  if (e.undefined)
    return PMPI_Waitsome(incount, array_of_requests, outcount, array_of_indices,
                         array_of_statuses);
  return wait_some(e, incount, array_of_requests, outcount, array_of_indices, array_of_statuses);
}

int replay_MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
  const MatchEvent &e = replay_cursor().next("MPI_Request_get_status");
  if (!e.flag) {
    progress();
    *flag = 0;
    return MPI_SUCCESS;
  }
  const MPI_Request *shadow = shadow_of(request);
  const MPI_Request served = shadow ? *shadow : request;
  return wait_until(e, "the request", [&](bool &done) {
    const int rc = PMPI_Request_get_status(served, flag, status);
    done = *flag != 0;
    return rc;
  });
}

int replay_MPI_Win_test(MPI_Win win, int *flag) {
  const MatchEvent &e = replay_cursor().next("MPI_Win_test");
  if (!e.flag) {
    progress();
    *flag = 0;
    return MPI_SUCCESS;
  }
  return wait_until(e, "the window's exposure epoch", [&](bool &done) {
    const int rc = PMPI_Win_test(win, flag);
    done = *flag != 0;
    return rc;
  });
}

} // namespace pilgrim::rt
