// dist_graph: distributed graph topologies, as the program gave them.
//
// MPI_Dist_graph_create_adjacent with weights and with MPI_UNWEIGHTED,
// neighbors listed out of rank order; MPI_Dist_graph_create where each rank
// gives some of the edges (one rank none, with MPI_WEIGHTS_EMPTY), weighted
// and unweighted; MPI_Dist_graph_neighbors_count and MPI_Dist_graph_neighbors
// (with MPI_UNWEIGHTED for an unweighted graph), checked against the graph
// given (neighbors and their weights; for MPI_Dist_graph_create in any
// order: Open MPI lists them as the edges' messages arrive), and a
// neighborhood collective on each graph. Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <algorithm>
#include <vector>

namespace {

int n = 0, rank = 0;
int peer(int d) { return ((rank + d) % n + n) % n; }

// The weight the program gives edge s -> d in a general graph.
int edge_weight(int s, int d) { return 100 * s + d; }

void check_neighbors(MPI_Comm graph, const std::vector<int> &in, const std::vector<int> &out,
                     const std::vector<int> &in_weights, const std::vector<int> &out_weights,
                     bool weighted, bool ordered, const char *what) {
  int indeg = -1, outdeg = -1, w = -1;
  MPI_Dist_graph_neighbors_count(graph, &indeg, &outdeg, &w);
  CHECK(indeg == int(in.size()) && outdeg == int(out.size()) && (w != 0) == weighted,
        "%s: neighbors_count gave %d/%d/%d", what, indeg, outdeg, w);
  std::vector<int> sources(in.size() + 1), destinations(out.size() + 1);
  std::vector<int> sw(in.size() + 1), dw(out.size() + 1);
  MPI_Dist_graph_neighbors(graph, indeg, sources.data(), weighted ? sw.data() : MPI_UNWEIGHTED,
                           outdeg, destinations.data(), weighted ? dw.data() : MPI_UNWEIGHTED);
  sources.resize(in.size());
  destinations.resize(out.size());
  if (weighted && ordered) {
    sw.resize(in.size());
    dw.resize(out.size());
    CHECK(sw == in_weights && dw == out_weights, "%s: other weights than given", what);
  } else if (weighted) { // each edge keeps its weight, whatever the order
    for (size_t i = 0; i < in.size(); ++i)
      CHECK(sw[i] == edge_weight(sources[i], rank), "%s: in-edge from %d weighs %d", what,
            sources[i], sw[i]);
    for (size_t i = 0; i < out.size(); ++i)
      CHECK(dw[i] == edge_weight(rank, destinations[i]), "%s: out-edge to %d weighs %d", what,
            destinations[i], dw[i]);
  }
  std::vector<int> want_in = in, want_out = out;
  if (!ordered) { // MPI may list the edges others gave in any order
    std::sort(sources.begin(), sources.end());
    std::sort(destinations.begin(), destinations.end());
    std::sort(want_in.begin(), want_in.end());
    std::sort(want_out.begin(), want_out.end());
  }
  CHECK(sources == want_in && destinations == want_out, "%s: other neighbors than given", what);
  // Every neighbor sends its rank.
  std::vector<int> got(in.size() + 1, -1);
  MPI_Neighbor_allgather(&rank, 1, MPI_INT, got.data(), 1, MPI_INT, graph);
  for (size_t i = 0; i < in.size(); ++i)
    CHECK(std::find(in.begin(), in.end(), got[i]) != in.end(), "%s: a message from %d", what,
          got[i]);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("dist_graph");
  n = mpitest::comm_size(MPI_COMM_WORLD);
  rank = mpitest::comm_rank(MPI_COMM_WORLD);
  if (n < 2)
    mpitest::fail("needs 2 or more ranks");

  // Adjacent: in from +2, +3, 0, +1 (in that order), out to the mirror.
  std::vector<int> in, out;
  for (int d : {2, 3, 0, 1})
    if (d < n)
      in.push_back(peer(d)), out.push_back(peer(-d));
  std::vector<int> win(in.size()), wout(out.size());
  for (size_t i = 0; i < in.size(); ++i)
    win[i] = 10 + int(i), wout[i] = 20 + int(i);
  MPI_Comm graph = MPI_COMM_NULL;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, int(in.size()), in.data(), win.data(),
                                 int(out.size()), out.data(), wout.data(), MPI_INFO_NULL, 0,
                                 &graph);
  check_neighbors(graph, in, out, win, wout, true, true, "adjacent, weighted");
  MPI_Comm_free(&graph);
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, int(in.size()), in.data(), MPI_UNWEIGHTED,
                                 int(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, 0,
                                 &graph);
  check_neighbors(graph, in, out, {}, {}, false, true, "adjacent, unweighted");
  MPI_Comm_free(&graph);

  // General: rank 0 gives no edges; every other rank r gives r -> r+1 and
  // r -> 0, so 0 has in-edges from all, and r+1 from r.
  std::vector<int> sources, degrees, destinations, weights;
  if (rank != 0) {
    sources.push_back(rank);
    degrees.push_back(rank + 1 < n ? 2 : 1);
    if (rank + 1 < n)
      destinations.push_back(rank + 1);
    destinations.push_back(0);
    for (int d : destinations)
      weights.push_back(edge_weight(rank, d));
  }
  std::vector<int> g_in, g_out;
  for (int r = 1; r < n; ++r) {
    if (r + 1 < n && r + 1 == rank)
      g_in.push_back(r);
    if (rank == 0)
      g_in.push_back(r);
  }
  if (rank != 0)
    g_out = destinations;
  for (int weighted = 1; weighted >= 0; --weighted) {
    MPI_Dist_graph_create(MPI_COMM_WORLD, int(sources.size()), sources.data(), degrees.data(),
                          destinations.data(),
                          !weighted   ? MPI_UNWEIGHTED
                          : rank == 0 ? MPI_WEIGHTS_EMPTY
                                      : weights.data(),
                          MPI_INFO_NULL, 0, &graph);
    check_neighbors(graph, g_in, g_out, {}, {}, weighted != 0, false,
                    weighted ? "general, weighted" : "general, unweighted");
    MPI_Comm_free(&graph);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
