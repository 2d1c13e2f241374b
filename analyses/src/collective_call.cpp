#include "pilgrim/collective_call.h"

#include <algorithm>
#include <iterator>

namespace pilgrim {

namespace {

// Sorted, for binary search.
constexpr std::string_view kCollectives[] = {
    "MPI_Allgather",
    "MPI_Allgatherv",
    "MPI_Allreduce",
    "MPI_Alltoall",
    "MPI_Alltoallv",
    "MPI_Alltoallw",
    "MPI_Barrier",
    "MPI_Bcast",
    "MPI_Exscan",
    "MPI_Gather",
    "MPI_Gatherv",
    "MPI_Neighbor_allgather",
    "MPI_Neighbor_allgatherv",
    "MPI_Neighbor_alltoall",
    "MPI_Neighbor_alltoallv",
    "MPI_Neighbor_alltoallw",
    "MPI_Reduce",
    "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block",
    "MPI_Scan",
    "MPI_Scatter",
    "MPI_Scatterv",
};

} // namespace

bool is_blocking_collective(std::string_view function) {
  constexpr std::string_view kLarge = "_c";
  if (function.size() > kLarge.size() && function.substr(function.size() - kLarge.size()) == kLarge)
    function.remove_suffix(kLarge.size());
  return std::binary_search(std::begin(kCollectives), std::end(kCollectives), function);
}

} // namespace pilgrim
