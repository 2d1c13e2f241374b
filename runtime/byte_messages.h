// A byte string sent to one rank of a communicator, of any length (MPI
// counts are int: longer strings go in 1 GiB pieces). For the tracer's own
// exchanges at MPI_Finalize, on its private communicator, each with a tag
// of its own.
#pragma once

#include <mpi.h>

#include <string>

namespace pilgrim::rt {

void send_bytes(const std::string &bytes, int to, int tag, MPI_Comm comm);
std::string recv_bytes(int from, int tag, MPI_Comm comm);

} // namespace pilgrim::rt
