// Which MPI functions are blocking collectives: the calls in which a rank
// waits for the others of its communicator, so that the time spent in them
// shows the imbalance between ranks (pilgrim-stats, docs/STATS.md).
// Nonblocking collectives (MPI_I...) return at once (their waiting is in
// MPI_Wait*), and persistent ones wait in MPI_Start/MPI_Wait*; neither is
// one. The large-count variants (MPI_Bcast_c, ...) are.
#pragma once

#include <string_view>

namespace pilgrim {

// MPI_Barrier, MPI_Bcast, MPI_Gather(v), MPI_Scatter(v), MPI_Allgather(v),
// MPI_Alltoall(v|w), MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter(_block),
// MPI_Scan, MPI_Exscan, MPI_Neighbor_allgather(v), MPI_Neighbor_alltoall(v|w),
// each also with the suffix _c.
bool is_blocking_collective(std::string_view function);

} // namespace pilgrim
