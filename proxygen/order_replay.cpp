#include "order_replay.h"

#include "order_replay_text.h"
#include "pilgrim/match_events.h"
#include "pilgrim/call_formatter.h"

namespace pilgrim::proxygen {

namespace {

// The MPI functions replay takes over (pilgrim/match_functions.h,
// is_replay_function), each defined by the proxy: without a tracer it
// replays the call (runtime/replay/replay_calls.h), with one it hands the
// call on to the tracer's definition.
const char *const kInterposer = R"(
// ---- the MPI functions order replay takes over --------------------------------

#include <dlfcn.h>

namespace proxy_order {
// Whether this proxy forces the recorded order itself: no Pilgrim tracer is
// loaded (pilgrim_trace_on, the prelude's weak hook, is the tracer's).
bool own = false;
template <class F> F next_definition(const char *name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}
// How long a wait may last: PILGRIM_PROXY_REPLAY_WATCHDOG seconds, 60 unset.
double watchdog(int rank) {
  const char *w = std::getenv("PILGRIM_PROXY_REPLAY_WATCHDOG");
  if (!w)
    return 60;
  char *end = nullptr;
  const double v = std::strtod(w, &end);
  if (end == w || *end != '\0' || !(v > 0)) {
    // Rank 0 says so and ends the run; the others wait for that, so that no
    // other rank's abort cuts its line short.
    if (rank == 0) {
      std::fprintf(stderr,
                   "proxy: PILGRIM_PROXY_REPLAY_WATCHDOG=%s is not a positive number of seconds\n",
                   w);
      std::fflush(stderr);
    } else {
      PMPI_Barrier(MPI_COMM_WORLD);
    }
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return v;
}
} // namespace proxy_order

#define PROXY_ORDER_CALL(name, params, args)                                                      \
  extern "C" int name params {                                                                     \
    if (proxy_order::own)                                                                          \
      return pilgrim::rt::replay_##name args;                                                      \
    static const auto next = proxy_order::next_definition<decltype(&name)>(#name);                 \
    return next args;                                                                              \
  }

PROXY_ORDER_CALL(MPI_Recv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status), (buf, count, datatype, source, tag, comm, status))
PROXY_ORDER_CALL(MPI_Irecv, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, source, tag, comm, request))
PROXY_ORDER_CALL(MPI_Sendrecv, (const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status), (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status))
PROXY_ORDER_CALL(MPI_Sendrecv_replace, (void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status), (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
PROXY_ORDER_CALL(MPI_Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, source, tag, comm, request))
#if MPI_VERSION >= 4
PROXY_ORDER_CALL(MPI_Recv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status *status), (buf, count, datatype, source, tag, comm, status))
PROXY_ORDER_CALL(MPI_Irecv_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, source, tag, comm, request))
PROXY_ORDER_CALL(MPI_Sendrecv_c, (const void *sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag, void *recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status *status), (sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag, comm, status))
PROXY_ORDER_CALL(MPI_Sendrecv_replace_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source, int recvtag, MPI_Comm comm, MPI_Status *status), (buf, count, datatype, dest, sendtag, source, recvtag, comm, status))
PROXY_ORDER_CALL(MPI_Recv_init_c, (void *buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, source, tag, comm, request))
#endif
PROXY_ORDER_CALL(MPI_Start, (MPI_Request *request), (request))
PROXY_ORDER_CALL(MPI_Startall, (int count, MPI_Request array_of_requests[]), (count, array_of_requests))
PROXY_ORDER_CALL(MPI_Wait, (MPI_Request *request, MPI_Status *status), (request, status))
PROXY_ORDER_CALL(MPI_Waitall, (int count, MPI_Request array_of_requests[], MPI_Status array_of_statuses[]), (count, array_of_requests, array_of_statuses))
PROXY_ORDER_CALL(MPI_Cancel, (MPI_Request *request), (request))
PROXY_ORDER_CALL(MPI_Request_free, (MPI_Request *request), (request))
PROXY_ORDER_CALL(MPI_Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status), (source, tag, comm, status))
PROXY_ORDER_CALL(MPI_Mprobe, (int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status), (source, tag, comm, message, status))
PROXY_ORDER_CALL(MPI_Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status), (source, tag, comm, flag, status))
PROXY_ORDER_CALL(MPI_Improbe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status), (source, tag, comm, flag, message, status))
PROXY_ORDER_CALL(MPI_Test, (MPI_Request *request, int *flag, MPI_Status *status), (request, flag, status))
PROXY_ORDER_CALL(MPI_Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status array_of_statuses[]), (count, array_of_requests, flag, array_of_statuses))
PROXY_ORDER_CALL(MPI_Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status), (count, array_of_requests, index, flag, status))
PROXY_ORDER_CALL(MPI_Testsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]), (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))
PROXY_ORDER_CALL(MPI_Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status), (count, array_of_requests, index, status))
PROXY_ORDER_CALL(MPI_Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status array_of_statuses[]), (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))
PROXY_ORDER_CALL(MPI_Request_get_status, (MPI_Request request, int *flag, MPI_Status *status), (request, flag, status))
PROXY_ORDER_CALL(MPI_Win_test, (MPI_Win win, int *flag), (win, flag))

// MPI_Finalize: the program made every recorded matching call.
extern "C" int MPI_Finalize(void) {
  if (proxy_order::own)
    pilgrim::rt::replay_cursor().check_finished();
  static const auto next = proxy_order::next_definition<decltype(&MPI_Finalize)>("MPI_Finalize");
  return next();
}
)";

std::string flag(bool b) { return b ? "1" : "0"; }

} // namespace

std::string order_replay_code(const Trace &trace, const std::vector<DecodedCall> &cst,
                              const std::string &trace_path) {
  std::string o =
      "\n// ---- order replay, compiled in (pilgrim-proxygen --order) -------------------\n"
      "// Without a Pilgrim tracer, the proxy's wildcard receives, completions and polls\n"
      "// match in the order of the trace it was made from: the runtime's order replay\n"
      "// (runtime/replay/), copied in below, reads the tables that follow it. Under\n"
      "// libpilgrim.so every call goes to the tracer, which replays the order when\n"
      "// PILGRIM_REPLAY names the trace.\n\n";
  o += kOrderReplaySource;
  o += kInterposer;
  o += "\n// ---- the recorded order: each rank's matching events --------------------------\n\n"
       "struct OrderRow {\n"
       "  unsigned long long call;\n"
       "  const char *function;\n"
       "  bool receive;\n"
       "  long long source, tag;\n"
       "  bool flag, undefined;\n"
       "  int first_index, indices; // in kOrderIndices\n"
       "};\n\n";
  std::vector<size_t> sizes;
  std::string indices;
  size_t nindices = 0;
  for (uint32_t r = 0; r < trace.nranks(); ++r) {
    const std::vector<MatchEvent> events = match_events(trace, cst, r);
    sizes.push_back(events.size());
    o += "const OrderRow kOrder" + std::to_string(r) + "[] = {\n";
    for (const MatchEvent &e : events) {
      o += "    {" + std::to_string(e.call) + "ull, \"" + e.function + "\", " + flag(e.receive) +
           ", " + std::to_string(e.source) + ", " + std::to_string(e.tag) + ", " + flag(e.flag) +
           ", " + flag(e.undefined) + ", " + std::to_string(nindices) + ", " +
           std::to_string(e.indices.size()) + "},\n";
      for (int64_t i : e.indices) {
        indices += std::to_string(i) + ", ";
        if (++nindices % 16 == 0)
          indices += "\n    ";
      }
    }
    if (events.empty())
      o += "    {0ull, \"\", 0, -1, -1, 1, 0, 0, 0},\n"; // no zero-size array
    o += "};\n";
  }
  o += "const long long kOrderIndices[] = {\n    " + indices + "0};\n\n";
  o += "const OrderRow *const kOrders[] = {";
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    o += std::string(r ? ", " : "") + "kOrder" + std::to_string(r);
  o += "};\nconst unsigned long kOrderSizes[] = {";
  for (size_t r = 0; r < sizes.size(); ++r)
    o += std::string(r ? ", " : "") + std::to_string(sizes[r]);
  o += "};\n\n";
  o += "// After MPI_Init: without a tracer, this rank's events become replay's cursor.\n"

       "void order_start(int rank) {\n"
       "  if (pilgrim_trace_on)\n"
       "    return; // a tracer is loaded: it replays when PILGRIM_REPLAY says so\n"
       "  std::vector<pilgrim::MatchEvent> events;\n"
       "  for (unsigned long i = 0; i < kOrderSizes[rank]; ++i) {\n"
       "    const OrderRow &row = kOrders[rank][i];\n"
       "    pilgrim::MatchEvent e;\n"
       "    e.call = row.call;\n"
       "    e.function = row.function;\n"
       "    e.receive = row.receive;\n"
       "    e.source = row.source;\n"
       "    e.tag = row.tag;\n"
       "    e.flag = row.flag;\n"
       "    e.undefined = row.undefined;\n"
       "    e.indices.assign(kOrderIndices + row.first_index,\n"
       "                     kOrderIndices + row.first_index + row.indices);\n"
       "    events.push_back(std::move(e));\n"
       "  }\n"
       "  const double watchdog = proxy_order::watchdog(rank);\n"
       "  MPI_Comm progress = MPI_COMM_NULL;\n"
       "  PMPI_Comm_dup(MPI_COMM_SELF, &progress);\n"
       "  pilgrim::rt::replay_cursor().start(std::move(events), \"the order compiled into this "
       "proxy (from \" " +
       quote_string(trace_path) +
       " \")\", rank, watchdog,\n"
       "                                    \"PILGRIM_PROXY_REPLAY_WATCHDOG\", progress);\n"
       "  proxy_order::own = true;\n"
       "}\n";
  return o;
}

} // namespace pilgrim::proxygen
