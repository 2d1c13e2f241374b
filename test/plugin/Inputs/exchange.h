// Header of sites_templates.cpp: an inline function and a class template
// whose MPI calls have their sites in this header.
#pragma once
#include <mpi.h>

inline int world_sum(int value) {
  int sum = 0;
  MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return sum;
}

namespace halo {

template <typename T> struct Ring {
  static MPI_Datatype type();
  // Sends to the right, receives from the left.
  T shift(T value, int rank, int size) {
    T got{};
    if (rank % 2 == 0) {
      MPI_Send(&value, 1, type(), (rank + 1) % size, 0, MPI_COMM_WORLD);
      MPI_Recv(&got, 1, type(), (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(&got, 1, type(), (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(&value, 1, type(), (rank + 1) % size, 0, MPI_COMM_WORLD);
    }
    return got;
  }
};
template <> inline MPI_Datatype Ring<int>::type() { return MPI_INT; }
template <> inline MPI_Datatype Ring<double>::type() { return MPI_DOUBLE; }

} // namespace halo
