#include "persistent_receives.h"

#include <unordered_map>

namespace pilgrim::rt {

namespace {

std::unordered_map<MPI_Request, PersistentReceive> &remembered() {
  static std::unordered_map<MPI_Request, PersistentReceive> m;
  return m;
}

std::unordered_map<MPI_Request, MPI_Request> &shadows() {
  static std::unordered_map<MPI_Request, MPI_Request> m;
  return m;
}

int post(const PersistentReceive &r, int source, int tag, MPI_Request *shadow) {
#if MPI_VERSION >= 4
  if (r.large)
    return PMPI_Irecv_c(r.buf, r.count, r.datatype, source, tag, r.comm, shadow);
#endif
  return PMPI_Irecv(r.buf, static_cast<int>(r.count), r.datatype, source, tag, r.comm, shadow);
}

} // namespace

void remember_receive(MPI_Request request, const PersistentReceive &r) {
  if (request != MPI_REQUEST_NULL && (r.source == MPI_ANY_SOURCE || r.tag == MPI_ANY_TAG))
    remembered()[request] = r;
}

int start_request(MPI_Request *request, int64_t source, int64_t tag) {
  const auto it = remembered().find(*request);
  if (it == remembered().end())
    return PMPI_Start(request);
  const PersistentReceive &r = it->second;
  const int s = r.source == MPI_ANY_SOURCE && source >= 0 ? static_cast<int>(source) : r.source;
  const int t = r.tag == MPI_ANY_TAG && tag >= 0 ? static_cast<int>(tag) : r.tag;
  if (s == r.source && t == r.tag) // the trace does not know what it matched
    return PMPI_Start(request);
  MPI_Request shadow = MPI_REQUEST_NULL;
  const int rc = post(r, s, t, &shadow);
  if (rc == MPI_SUCCESS)
    shadows()[*request] = shadow;
  return rc;
}

bool any_shadow() { return !shadows().empty(); }

MPI_Request *shadow_of(MPI_Request request) {
  if (shadows().empty())
    return nullptr;
  const auto it = shadows().find(request);
  return it == shadows().end() ? nullptr : &it->second;
}

void end_shadow(MPI_Request request) { shadows().erase(request); }

void forget_request(MPI_Request request) {
  if (MPI_Request *s = shadow_of(request)) {
    PMPI_Request_free(s);
    end_shadow(request);
  }
  remembered().erase(request);
}

} // namespace pilgrim::rt
