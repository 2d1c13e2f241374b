#include "otf2_functions.h"

#include <cctype>
#include <string>

namespace pilgrim::exporter {

namespace {

struct CollectiveName {
  const char *name; // without "MPI_", "I" and "_c"
  OTF2_CollectiveOp op;
  OTF2_RegionRole role;
  bool rooted;
  // The count of the send (receive) buffer is per peer: the bytes are
  // count x size x the communicator's size.
  bool per_peer_sent = false, per_peer_received = false;
};

// OTF2 has no neighbourhood operations: they map to the operation with the
// same data movement among the neighbours (docs/EXPORT.md says so).
const CollectiveName kCollectives[] = {
    {"Barrier", OTF2_COLLECTIVE_OP_BARRIER, OTF2_REGION_ROLE_BARRIER, false},
    {"Bcast", OTF2_COLLECTIVE_OP_BCAST, OTF2_REGION_ROLE_COLL_ONE2ALL, true},
    {"Gather", OTF2_COLLECTIVE_OP_GATHER, OTF2_REGION_ROLE_COLL_ALL2ONE, true, false, true},
    {"Gatherv", OTF2_COLLECTIVE_OP_GATHERV, OTF2_REGION_ROLE_COLL_ALL2ONE, true},
    {"Scatter", OTF2_COLLECTIVE_OP_SCATTER, OTF2_REGION_ROLE_COLL_ONE2ALL, true, true, false},
    {"Scatterv", OTF2_COLLECTIVE_OP_SCATTERV, OTF2_REGION_ROLE_COLL_ONE2ALL, true},
    {"Allgather", OTF2_COLLECTIVE_OP_ALLGATHER, OTF2_REGION_ROLE_COLL_ALL2ALL, false, false, true},
    {"Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, OTF2_REGION_ROLE_COLL_ALL2ALL, false, true, true},
    {"Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Reduce", OTF2_COLLECTIVE_OP_REDUCE, OTF2_REGION_ROLE_COLL_ALL2ONE, true},
    {"Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK, OTF2_REGION_ROLE_COLL_ALL2ALL,
     false, true, false},
    {"Scan", OTF2_COLLECTIVE_OP_SCAN, OTF2_REGION_ROLE_COLL_OTHER, false},
    {"Exscan", OTF2_COLLECTIVE_OP_EXSCAN, OTF2_REGION_ROLE_COLL_OTHER, false},
    {"Neighbor_allgather", OTF2_COLLECTIVE_OP_ALLGATHER, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Neighbor_allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Neighbor_alltoall", OTF2_COLLECTIVE_OP_ALLTOALL, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Neighbor_alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
    {"Neighbor_alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW, OTF2_REGION_ROLE_COLL_ALL2ALL, false},
};

const CollectiveName *collective(std::string_view base) {
  for (const CollectiveName &c : kCollectives)
    if (base == c.name)
      return &c;
  return nullptr;
}

Otf2Function as_collective(const CollectiveName &c, Otf2Kind kind) {
  Otf2Function f;
  f.kind = kind;
  f.role = c.role;
  f.op = c.op;
  f.rooted = c.rooted;
  f.per_peer_sent = c.per_peer_sent;
  f.per_peer_received = c.per_peer_received;
  return f;
}

bool one_of(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (name == n)
      return true;
  return false;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

} // namespace

Otf2Function otf2_function(std::string_view name) {
  Otf2Function f;
  if (!starts_with(name, "MPI_"))
    return f;
  std::string_view base = name.substr(4);
  if (base.size() > 2 && base.substr(base.size() - 2) == "_c")
    base = base.substr(0, base.size() - 2);
  const auto p2p = [&](Otf2Kind kind) {
    f.kind = kind;
    f.role = OTF2_REGION_ROLE_POINT2POINT;
    return f;
  };
  if (one_of(base, {"Send", "Bsend", "Ssend", "Rsend"}))
    return p2p(Otf2Kind::Send);
  if (base == "Recv")
    return p2p(Otf2Kind::Recv);
  if (one_of(base, {"Sendrecv", "Sendrecv_replace"}))
    return p2p(Otf2Kind::Sendrecv);
  if (one_of(base, {"Isend", "Ibsend", "Issend", "Irsend"}))
    return p2p(Otf2Kind::Isend);
  if (base == "Irecv")
    return p2p(Otf2Kind::Irecv);
  if (one_of(base, {"Send_init", "Bsend_init", "Ssend_init", "Rsend_init"}))
    return p2p(Otf2Kind::SendInit);
  if (base == "Recv_init")
    return p2p(Otf2Kind::RecvInit);
  if (one_of(base, {"Start", "Startall"}))
    return p2p(Otf2Kind::Start);
  if (one_of(base, {"Mprobe", "Improbe"}))
    return p2p(Otf2Kind::MatchedProbe);
  if (base == "Mrecv")
    return p2p(Otf2Kind::Mrecv);
  if (base == "Imrecv")
    return p2p(Otf2Kind::Imrecv);
  if (one_of(base, {"Probe", "Iprobe"}))
    return p2p(Otf2Kind::Plain);
  if (one_of(base, {"Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall", "Testany",
                    "Testsome"})) {
    f.kind = Otf2Kind::Completion;
    return f;
  }
  if (base == "Cancel") {
    f.kind = Otf2Kind::Cancel;
    return f;
  }
  if (base == "Request_free") {
    f.kind = Otf2Kind::RequestFree;
    return f;
  }
  if (const CollectiveName *c = collective(base))
    return as_collective(*c, Otf2Kind::Collective);
  // MPI_Ibarrier, MPI_Iallreduce, MPI_Ineighbor_alltoall: the blocking
  // name with its first letter lower case.
  std::string blocking(base.size() > 1 && base[0] == 'I' ? base.substr(1) : std::string_view());
  if (!blocking.empty())
    blocking[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[0])));
  if (!blocking.empty())
    if (const CollectiveName *c = collective(blocking))
      return as_collective(*c, Otf2Kind::NbCollective);
  if (one_of(base,
             {"Comm_dup", "Comm_dup_with_info", "Comm_idup", "Comm_idup_with_info", "Comm_split",
              "Comm_split_type", "Comm_create", "Comm_create_group", "Cart_create", "Cart_sub",
              "Graph_create", "Dist_graph_create", "Dist_graph_create_adjacent", "Intercomm_create",
              "Intercomm_create_from_groups", "Intercomm_merge"})) {
    f.kind = Otf2Kind::CommCreate;
    f.role = OTF2_REGION_ROLE_COLL_OTHER;
    f.op = OTF2_COLLECTIVE_OP_CREATE_HANDLE;
    return f;
  }
  if (one_of(base, {"Comm_free", "Comm_disconnect"})) {
    f.kind = Otf2Kind::CommDestroy;
    f.role = OTF2_REGION_ROLE_COLL_OTHER;
    f.op = OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
    return f;
  }
  if (starts_with(base, "File_"))
    f.role = OTF2_REGION_ROLE_FILE_IO;
  else if (one_of(base, {"Put", "Get", "Accumulate", "Get_accumulate", "Fetch_and_op",
                         "Compare_and_swap", "Rput", "Rget", "Raccumulate", "Rget_accumulate"}) ||
           starts_with(base, "Win_"))
    f.role = OTF2_REGION_ROLE_RMA;
  return f;
}

} // namespace pilgrim::exporter
