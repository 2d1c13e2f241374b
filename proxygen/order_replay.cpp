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
// How long a wait may last: PILGRIM_PROXY_REPLAY_WATCHDOG seconds, 60 unset;
// 0 (after one line from rank 0) when the value is no positive number.
double watchdog(int rank) {
  const char *w = std::getenv("PILGRIM_PROXY_REPLAY_WATCHDOG");
  if (!w)
    return 60;
  char *end = nullptr;
  const double v = std::strtod(w, &end);
  if (end != w && *end == '\0' && v > 0)
    return v;
  if (rank == 0)
    std::fprintf(stderr,
                 "proxy: PILGRIM_PROXY_REPLAY_WATCHDOG=%s is not a positive number of seconds\n", w);
  return 0;
}
} // namespace proxy_order

#define PROXY_ORDER_CALL(name, params, args)                                                      \
  extern "C" int name params {                                                                     \
    if (proxy_order::own)                                                                          \
      return pilgrim::rt::replay_##name args;                                                      \
    static const auto next = proxy_order::next_definition<decltype(&name)>(#name);                 \
    return next args;                                                                              \
  }

PILGRIM_REPLAY_FUNCTIONS(PROXY_ORDER_CALL)

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
       "// False (after one line from rank 0) on a bad setting.\n"
       "bool order_start(int rank) {\n"
       "  if (pilgrim_trace_on)\n"
       "    return true; // a tracer is loaded: it replays when PILGRIM_REPLAY says so\n"
       "  const double watchdog = proxy_order::watchdog(rank);\n"
       "  if (watchdog <= 0)\n"
       "    return false;\n"
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
       "  MPI_Comm progress = MPI_COMM_NULL;\n"
       "  PMPI_Comm_dup(MPI_COMM_SELF, &progress);\n"
       "  pilgrim::rt::replay_cursor().start(std::move(events), \"the order compiled into this "
       "proxy (from \" " +
       quote_string(trace_path) +
       " \")\", rank, watchdog,\n"
       "                                    \"PILGRIM_PROXY_REPLAY_WATCHDOG\", progress);\n"
       "  proxy_order::own = true;\n"
       "  return true;\n"
       "}\n";
  return o;
}

} // namespace pilgrim::proxygen
