// A stand-in tracer for the plugin tests: a library (LD_PRELOADed, like
// libpilgrim.so) that intercepts a few MPI calls and prints, on rank 0, the
// site the plugin-built caller stored, through the runtime's API
// (runtime/sites/plugin_sites.h): take_current() then resolve().
#include <mpi.h>

#include <cinttypes>
#include <cstdio>

#include "sites/plugin_sites.h"

namespace {

void print_site(const char *call) {
  uint64_t id = pilgrim::plugin_sites::take_current();
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0)
    return;
  const pilgrim::plugin_sites::Site *site = pilgrim::plugin_sites::resolve(id);
  if (id == 0)
    std::printf("site %s: none\n", call);
  else if (site == nullptr)
    std::printf("site %s: unknown id %016" PRIx64 "\n", call, id);
  else
    std::printf("site %s %016" PRIx64 " at %s:%u:%u in %s\n", call, id, site->file, site->line,
                site->column, site->function);
  std::fflush(stdout);
}

} // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  print_site("MPI_Barrier");
  return PMPI_Barrier(comm);
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  print_site("MPI_Bcast");
  return PMPI_Bcast(buf, count, type, root, comm);
}

int MPI_Allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  print_site("MPI_Allreduce");
  return PMPI_Allreduce(in, out, count, type, op, comm);
}

int MPI_Send(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
  print_site("MPI_Send");
  return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  print_site("MPI_Recv");
  return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req) {
  print_site("MPI_Isend");
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req) {
  print_site("MPI_Irecv");
  return PMPI_Irecv(buf, count, type, source, tag, comm, req);
}

int MPI_Waitall(int count, MPI_Request *reqs, MPI_Status *statuses) {
  print_site("MPI_Waitall");
  return PMPI_Waitall(count, reqs, statuses);
}

int MPI_Finalize(void) {
  print_site("MPI_Finalize");
  return PMPI_Finalize();
}

} // extern "C"
