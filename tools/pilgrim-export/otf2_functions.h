// What an MPI function is to OTF2: its region role (OTF2_RegionRole) and
// the events its calls become (docs/EXPORT.md, "OTF2", the mapping table).
// Decided from the function's name alone, so that every call of a function
// maps alike.
#pragma once

#include <otf2/OTF2_Definitions.h>
#include <otf2/OTF2_Events.h>
#include <string_view>

namespace pilgrim::exporter {

enum class Otf2Kind {
  Plain,        // Enter/Leave only
  Send,         // MPI_Send, Bsend, Ssend, Rsend: MpiSend
  Recv,         // MPI_Recv: MpiRecv from the status
  Sendrecv,     // MPI_Sendrecv(_replace): MpiSend then MpiRecv
  Isend,        // MPI_Isend, Ibsend, Issend, Irsend: MpiIsend
  Irecv,        // MPI_Irecv: MpiIrecvRequest
  SendInit,     // MPI_Send_init, ...: each MPI_Start is an MpiIsend
  RecvInit,     // MPI_Recv_init: each MPI_Start is an MpiIrecvRequest
  Start,        // MPI_Start, MPI_Startall
  MatchedProbe, // MPI_Mprobe, MPI_Improbe: a message taken, received later
  Mrecv,        // MPI_Mrecv: MpiRecv of the probed message
  Imrecv,       // MPI_Imrecv: MpiIrecvRequest of the probed message
  Completion,   // MPI_Wait*, MPI_Test*: completes requests
  Cancel,       // MPI_Cancel: MpiRequestCancelled
  RequestFree,  // MPI_Request_free
  Collective,   // blocking collective: MpiCollectiveBegin/End
  NbCollective, // MPI_Ibarrier, ...: NonBlockingCollectiveRequest/Complete
  CommCreate,   // MPI_Comm_dup, split, create, ...: a CREATE_HANDLE collective
  CommDestroy,  // MPI_Comm_free, MPI_Comm_disconnect: DESTROY_HANDLE
};

struct Otf2Function {
  Otf2Kind kind = Otf2Kind::Plain;
  OTF2_RegionRole role = OTF2_REGION_ROLE_FUNCTION;
  OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER; // kinds Collective, NbCollective, Comm*
  bool rooted = false;                               // the call has a root argument
  // Collectives whose send (receive) count is per peer (MPI_Gather's
  // recvcount, MPI_Alltoall's both): the bytes are count x size x the
  // communicator's size.
  bool per_peer_sent = false, per_peer_received = false;
};

// "MPI_Allreduce" -> {Collective, COLL_ALL2ALL, ALLREDUCE}. Large-count
// variants (suffix _c) map as their base function.
Otf2Function otf2_function(std::string_view name);

} // namespace pilgrim::exporter
