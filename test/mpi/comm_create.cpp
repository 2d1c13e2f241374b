// comm_create: communicator, group and topology management.
//
// MPI_Comm_dup, MPI_Comm_idup, MPI_Comm_split (unequal colors, reversed keys,
// MPI_UNDEFINED), MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), groups
// (MPI_Comm_group, MPI_Group_size/rank/incl/excl/range_incl/range_excl/union/
// intersection/difference/translate_ranks/compare), MPI_Comm_create,
// MPI_Comm_create_group, Cartesian topologies (MPI_Dims_create,
// MPI_Cart_create/coords/rank/shift/sub/get, MPI_Cartdim_get), graph
// topologies (MPI_Graph_create, MPI_Graphdims_get, MPI_Graph_get,
// MPI_Graph_neighbors_count, MPI_Graph_neighbors), distributed graphs
// (MPI_Dist_graph_create_adjacent, MPI_Dist_graph_neighbors_count/neighbors)
// with neighborhood collectives (MPI_Neighbor_allgather,
// MPI_Neighbor_alltoall), MPI_Topo_test, MPI_Intercomm_create,
// MPI_Comm_test_inter, MPI_Comm_remote_size/remote_group,
// MPI_Intercomm_merge, MPI_Comm_compare, MPI_Comm_free and MPI_Group_free.
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

using mpitest::comm_rank;
using mpitest::comm_size;

int compare(MPI_Comm a, MPI_Comm b) {
  int result = -1;
  MPI_Comm_compare(a, b, &result);
  return result;
}

int group_compare(MPI_Group a, MPI_Group b) {
  int result = -1;
  MPI_Group_compare(a, b, &result);
  return result;
}

// World ranks of the members of `c`, in the rank order of `c`.
std::vector<int> members(MPI_Comm c) {
  int world_rank = comm_rank(MPI_COMM_WORLD);
  std::vector<int> all(comm_size(c), -1);
  MPI_Allgather(&world_rank, 1, MPI_INT, all.data(), 1, MPI_INT, c);
  return all;
}

void free_comm(MPI_Comm *c) {
  MPI_Comm_free(c);
  CHECK(*c == MPI_COMM_NULL, "Comm_free did not reset the handle");
}

void free_group(MPI_Group *g) {
  MPI_Group_free(g);
  CHECK(*g == MPI_GROUP_NULL, "Group_free did not reset the handle");
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("comm_create");
  const int rank = comm_rank(MPI_COMM_WORLD), n = comm_size(MPI_COMM_WORLD);
  CHECK(n >= 2, "needs at least 2 ranks, got %d", n);
  const int next = (rank + 1) % n, prev = (rank + n - 1) % n;
  const int n_even = (n + 1) / 2, n_odd = n / 2;

  // --- Duplication -------------------------------------------------------------
  MPI_Comm dup = MPI_COMM_NULL, idup = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  CHECK(compare(MPI_COMM_WORLD, MPI_COMM_WORLD) == MPI_IDENT, "world vs world is not IDENT");
  CHECK(compare(dup, MPI_COMM_WORLD) == MPI_CONGRUENT, "dup vs world is not CONGRUENT");
  CHECK(comm_rank(dup) == rank && comm_size(dup) == n, "dup has a different rank or size");
  {
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
    CHECK(sum == n * (n - 1) / 2, "Allreduce on dup gave %d", sum);
    MPI_Request req;
    MPI_Comm_idup(dup, &idup, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(compare(idup, dup) == MPI_CONGRUENT, "idup vs dup is not CONGRUENT");
  }

  // --- Comm_split: {0} and {n-1, ..., 1} (keys reverse the order) ----------
  MPI_Comm split = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : 1, -rank, &split);
  {
    const std::vector<int> m = members(split);
    if (rank == 0) {
      CHECK(m.size() == 1 && m[0] == 0, "split: color 0 has %d members", int(m.size()));
    } else {
      CHECK(int(m.size()) == n - 1, "split: color 1 has %d members", int(m.size()));
      for (int k = 0; k < n - 1; ++k)
        CHECK(m[k] == n - 1 - k, "split: rank %d of color 1 is world rank %d", k, m[k]);
      CHECK(comm_rank(split) == n - 1 - rank, "split: my rank is %d", comm_rank(split));
    }
    CHECK(compare(split, MPI_COMM_WORLD) == MPI_UNEQUAL, "split vs world is not UNEQUAL");
  }
  // The last rank opts out with MPI_UNDEFINED; the rest split by parity.
  MPI_Comm parity = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank == n - 1 ? MPI_UNDEFINED : rank % 2, 0, &parity);
  if (rank == n - 1) {
    CHECK(parity == MPI_COMM_NULL, "split with MPI_UNDEFINED returned a communicator");
  } else {
    const std::vector<int> m = members(parity);
    int want = 0;
    for (int r = 0; r < n - 1; ++r) want += r % 2 == rank % 2;
    CHECK(int(m.size()) == want, "parity split has %d members, expected %d", int(m.size()), want);
    for (int k = 0; k < want; ++k)
      CHECK(m[k] == rank % 2 + 2 * k, "parity split: rank %d is world rank %d", k, m[k]);
  }

  // --- Comm_split_type(MPI_COMM_TYPE_SHARED) --------------------------------
  MPI_Comm shm = MPI_COMM_NULL;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm);
  {
    const std::vector<int> m = members(shm);
    for (int k = 1; k < int(m.size()); ++k)
      CHECK(m[k - 1] < m[k], "shared split is not ordered by world rank");
    CHECK(m[comm_rank(shm)] == rank, "shared split: my entry is %d", m[comm_rank(shm)]);
    // Every node leader counts its node: the sizes add up to the world.
    int mine = comm_rank(shm) == 0 ? comm_size(shm) : 0, total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(total == n, "shared communicators cover %d ranks", total);
  }

  // --- Groups ------------------------------------------------------------------
  MPI_Group world_group = MPI_GROUP_NULL, dup_group = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world_group);
  MPI_Comm_group(dup, &dup_group);
  MPI_Group even_group = MPI_GROUP_NULL, range_group = MPI_GROUP_NULL;
  MPI_Group excl_group = MPI_GROUP_NULL, rev_group = MPI_GROUP_NULL;
  MPI_Group union_group = MPI_GROUP_NULL, inter_group = MPI_GROUP_NULL;
  MPI_Group diff_group = MPI_GROUP_NULL;
  {
    int gsize = -1, grank = -1;
    MPI_Group_size(world_group, &gsize);
    MPI_Group_rank(world_group, &grank);
    CHECK(gsize == n && grank == rank, "world group size %d rank %d", gsize, grank);
    CHECK(group_compare(world_group, dup_group) == MPI_IDENT, "dup group is not IDENT");

    std::vector<int> evens, reversed(n);
    for (int r = 0; r < n; r += 2) evens.push_back(r);
    for (int r = 0; r < n; ++r) reversed[r] = n - 1 - r;
    MPI_Group_incl(world_group, int(evens.size()), evens.data(), &even_group);
    int ranges[1][3] = {{0, n - 1, 2}};
    MPI_Group_range_incl(world_group, 1, ranges, &range_group);
    CHECK(group_compare(even_group, range_group) == MPI_IDENT,
          "Group_incl and Group_range_incl of the even ranks differ");
    // The odd ranks, from the highest down (a negative stride), excluded.
    int odd_down[1][3] = {{(n - 1) % 2 ? n - 1 : n - 2, 1, -2}};
    MPI_Group range_excl_group = MPI_GROUP_NULL;
    MPI_Group_range_excl(world_group, 1, odd_down, &range_excl_group);
    CHECK(group_compare(even_group, range_excl_group) == MPI_IDENT,
          "Group_range_excl of the odd ranks does not leave the even ones");
    free_group(&range_excl_group);
    MPI_Group_rank(even_group, &grank);
    CHECK(grank == (rank % 2 ? MPI_UNDEFINED : rank / 2), "rank in even group is %d", grank);

    const int zero = 0;
    MPI_Group_excl(world_group, 1, &zero, &excl_group);
    MPI_Group_size(excl_group, &gsize);
    CHECK(gsize == n - 1, "Group_excl gave size %d", gsize);
    std::vector<int> in(n - 1), out(n - 1, -7);
    for (int k = 0; k < n - 1; ++k) in[k] = k;
    MPI_Group_translate_ranks(excl_group, n - 1, in.data(), world_group, out.data());
    for (int k = 0; k < n - 1; ++k)
      CHECK(out[k] == k + 1, "translate_ranks: excl rank %d -> world %d", k, out[k]);
    int undefined = -7;
    MPI_Group_translate_ranks(world_group, 1, &zero, excl_group, &undefined);
    CHECK(undefined == MPI_UNDEFINED, "translate_ranks of an excluded rank gave %d", undefined);

    MPI_Group_incl(world_group, n, reversed.data(), &rev_group);
    CHECK(group_compare(world_group, rev_group) == MPI_SIMILAR, "reversed group is not SIMILAR");
    CHECK(group_compare(even_group, excl_group) == MPI_UNEQUAL, "even vs excl is not UNEQUAL");

    MPI_Group_union(even_group, excl_group, &union_group);
    MPI_Group_size(union_group, &gsize);
    CHECK(gsize == n, "Group_union has size %d", gsize);
    CHECK(group_compare(union_group, world_group) == (n <= 2 ? MPI_IDENT : MPI_SIMILAR),
          "Group_union compares as %d", group_compare(union_group, world_group));
    MPI_Group_intersection(even_group, excl_group, &inter_group);
    MPI_Group_size(inter_group, &gsize);
    CHECK(gsize == n_even - 1, "Group_intersection has size %d", gsize);
    MPI_Group_difference(world_group, even_group, &diff_group);
    MPI_Group_size(diff_group, &gsize);
    CHECK(gsize == n_odd, "Group_difference has size %d", gsize);
  }

  // --- Comm_create (collective over world) -----------------------------------
  MPI_Comm even_comm = MPI_COMM_NULL;
  MPI_Comm_create(MPI_COMM_WORLD, even_group, &even_comm);
  if (rank % 2) {
    CHECK(even_comm == MPI_COMM_NULL, "odd rank got a communicator from Comm_create");
  } else {
    CHECK(comm_size(even_comm) == n_even && comm_rank(even_comm) == rank / 2,
          "even comm: size %d rank %d", comm_size(even_comm), comm_rank(even_comm));
    int sum = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, even_comm);
    CHECK(sum == n_even * (n_even - 1), "Allreduce on even comm gave %d", sum);
  }

  // --- Comm_create_group (collective over the group only) -------------------
  MPI_Comm excl_comm = MPI_COMM_NULL;
  if (rank != 0) {
    MPI_Comm_create_group(MPI_COMM_WORLD, excl_group, 7, &excl_comm);
    CHECK(comm_size(excl_comm) == n - 1 && comm_rank(excl_comm) == rank - 1,
          "Comm_create_group: size %d rank %d", comm_size(excl_comm), comm_rank(excl_comm));
    const std::vector<int> m = members(excl_comm);
    for (int k = 0; k < n - 1; ++k)
      CHECK(m[k] == k + 1, "Comm_create_group: rank %d is world rank %d", k, m[k]);
  }

  // --- Cartesian topology: dims[0] periodic, dims[1] not ----------------------
  MPI_Comm cart = MPI_COMM_NULL, cart_row = MPI_COMM_NULL, cart_col = MPI_COMM_NULL;
  {
    int dims[2] = {0, 0}, periods[2] = {1, 0};
    MPI_Dims_create(n, 2, dims);
    CHECK(dims[0] * dims[1] == n && dims[0] >= dims[1], "Dims_create gave %dx%d", dims[0],
          dims[1]);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    int status = -1, ndims = -1;
    MPI_Topo_test(cart, &status);
    CHECK(status == MPI_CART, "Topo_test(cart) gave %d", status);
    MPI_Cartdim_get(cart, &ndims);
    CHECK(ndims == 2, "Cartdim_get gave %d", ndims);
    int gdims[2], gperiods[2], gcoords[2];
    MPI_Cart_get(cart, 2, gdims, gperiods, gcoords);
    const int c0 = rank / dims[1], c1 = rank % dims[1];
    CHECK(gdims[0] == dims[0] && gdims[1] == dims[1] && gperiods[0] && !gperiods[1] &&
              gcoords[0] == c0 && gcoords[1] == c1,
          "Cart_get mismatch");
    for (int r = 0; r < n; ++r) {
      int coords[2] = {-1, -1}, back = -1;
      MPI_Cart_coords(cart, r, 2, coords);
      CHECK(coords[0] == r / dims[1] && coords[1] == r % dims[1], "Cart_coords(%d) = (%d,%d)", r,
            coords[0], coords[1]);
      MPI_Cart_rank(cart, coords, &back);
      CHECK(back == r, "Cart_rank(Cart_coords(%d)) = %d", r, back);
    }
    int src = -7, dst = -7;
    MPI_Cart_shift(cart, 0, 1, &src, &dst);
    CHECK(src == ((c0 + dims[0] - 1) % dims[0]) * dims[1] + c1 &&
              dst == ((c0 + 1) % dims[0]) * dims[1] + c1,
          "Cart_shift(periodic dim) gave %d -> %d", src, dst);
    int src1 = -7, dst1 = -7;
    MPI_Cart_shift(cart, 1, 1, &src1, &dst1);
    CHECK(src1 == (c1 > 0 ? rank - 1 : MPI_PROC_NULL) &&
              dst1 == (c1 < dims[1] - 1 ? rank + 1 : MPI_PROC_NULL),
          "Cart_shift(non-periodic dim) gave %d -> %d", src1, dst1);
    // Shift data along the periodic dimension.
    int got = -1;
    MPI_Sendrecv(&rank, 1, MPI_INT, dst, 3, &got, 1, MPI_INT, src, 3, cart, MPI_STATUS_IGNORE);
    CHECK(got == src, "Sendrecv along the periodic dimension gave %d", got);
    // Neighbor_allgather: neighbors in order (dim0 -1, dim0 +1, dim1 -1, dim1 +1).
    int nbrs[4] = {-1, -1, -1, -1};
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, nbrs, 1, MPI_INT, cart);
    const int want[4] = {src, dst, src1, dst1};
    for (int k = 0; k < 4; ++k)
      CHECK(nbrs[k] == (want[k] == MPI_PROC_NULL ? -1 : want[k]),
            "Neighbor_allgather(cart): slot %d is %d, neighbor %d", k, nbrs[k], want[k]);

    const int keep_row[2] = {0, 1}, keep_col[2] = {1, 0};
    MPI_Cart_sub(cart, keep_row, &cart_row);
    MPI_Cart_sub(cart, keep_col, &cart_col);
    CHECK(comm_size(cart_row) == dims[1] && comm_rank(cart_row) == c1,
          "Cart_sub(row): size %d rank %d", comm_size(cart_row), comm_rank(cart_row));
    CHECK(comm_size(cart_col) == dims[0] && comm_rank(cart_col) == c0,
          "Cart_sub(col): size %d rank %d", comm_size(cart_col), comm_rank(cart_col));
    MPI_Topo_test(cart_col, &status);
    CHECK(status == MPI_CART, "Topo_test(Cart_sub) gave %d", status);
  }

  // --- Graph topology: a star around rank 0 ----------------------------------
  MPI_Comm graph = MPI_COMM_NULL;
  {
    std::vector<int> index(n), edges;
    for (int r = 1; r < n; ++r) edges.push_back(r);
    index[0] = n - 1;
    for (int r = 1; r < n; ++r) {
      edges.push_back(0);
      index[r] = index[r - 1] + 1;
    }
    MPI_Graph_create(MPI_COMM_WORLD, n, index.data(), edges.data(), 0, &graph);
    int status = -1, nnodes = -1, nedges = -1;
    MPI_Topo_test(graph, &status);
    CHECK(status == MPI_GRAPH, "Topo_test(graph) gave %d", status);
    MPI_Graphdims_get(graph, &nnodes, &nedges);
    CHECK(nnodes == n && nedges == 2 * (n - 1), "Graphdims_get gave %d nodes %d edges", nnodes,
          nedges);
    std::vector<int> gindex(n), gedges(nedges);
    MPI_Graph_get(graph, n, nedges, gindex.data(), gedges.data());
    CHECK(gindex == index && gedges == edges, "Graph_get returned a different graph");
    int count = -1;
    MPI_Graph_neighbors_count(graph, rank, &count);
    CHECK(count == (rank == 0 ? n - 1 : 1), "Graph_neighbors_count gave %d", count);
    std::vector<int> nb(count, -1);
    MPI_Graph_neighbors(graph, rank, count, nb.data());
    for (int k = 0; k < count; ++k)
      CHECK(nb[k] == (rank == 0 ? k + 1 : 0), "Graph_neighbors: neighbor %d is %d", k, nb[k]);
  }

  // --- Distributed graph: directed ring, neighborhood collectives -----------
  MPI_Comm dgraph = MPI_COMM_NULL;
  {
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &prev, MPI_UNWEIGHTED, 1, &next,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &dgraph);
    int status = -1;
    MPI_Topo_test(dgraph, &status);
    CHECK(status == MPI_DIST_GRAPH, "Topo_test(dist graph) gave %d", status);
    int indeg = -1, outdeg = -1, weighted = -1;
    MPI_Dist_graph_neighbors_count(dgraph, &indeg, &outdeg, &weighted);
    CHECK(indeg == 1 && outdeg == 1 && !weighted, "Dist_graph_neighbors_count gave %d/%d/%d",
          indeg, outdeg, weighted);
    int src = -1, dst = -1, sw = 0, dw = 0;
    MPI_Dist_graph_neighbors(dgraph, 1, &src, &sw, 1, &dst, &dw);
    CHECK(src == prev && dst == next, "Dist_graph_neighbors gave %d -> %d", src, dst);
    int got = -1;
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, &got, 1, MPI_INT, dgraph);
    CHECK(got == prev, "Neighbor_allgather(dist graph) gave %d, expected %d", got, prev);
    int out[2] = {rank * 10, rank * 10 + 1}, in[2] = {-1, -1};
    MPI_Neighbor_alltoall(out, 2, MPI_INT, in, 2, MPI_INT, dgraph);
    CHECK(in[0] == prev * 10 && in[1] == prev * 10 + 1, "Neighbor_alltoall gave %d %d", in[0],
          in[1]);
  }

  // --- Intercommunicator between even and odd ranks, then merged ------------
  MPI_Comm local = MPI_COMM_NULL, inter = MPI_COMM_NULL, merged = MPI_COMM_NULL;
  MPI_Group remote_group = MPI_GROUP_NULL;
  {
    const int color = rank % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? 1 : 0, 42, &inter);
    int is_inter = 0;
    MPI_Comm_test_inter(inter, &is_inter);
    CHECK(is_inter, "Intercomm_create did not give an intercommunicator");
    int remote_size = -1;
    MPI_Comm_remote_size(inter, &remote_size);
    const int local_n = color ? n_odd : n_even, remote_n = color ? n_even : n_odd;
    CHECK(comm_size(inter) == local_n && remote_size == remote_n,
          "intercomm: local size %d remote size %d", comm_size(inter), remote_size);
    MPI_Comm_remote_group(inter, &remote_group);
    int gsize = -1;
    MPI_Group_size(remote_group, &gsize);
    CHECK(gsize == remote_n, "remote group has size %d", gsize);
    // An intercommunicator allreduce delivers the reduction of the remote group.
    int sum = -1, want = 0;
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter);
    for (int r = 1 - color; r < n; r += 2) want += r;
    CHECK(sum == want, "Allreduce on intercomm gave %d, expected %d", sum, want);

    MPI_Intercomm_merge(inter, color, &merged);  // even ranks first
    const std::vector<int> m = members(merged);
    CHECK(int(m.size()) == n, "merged comm has %d members", int(m.size()));
    for (int k = 0; k < n; ++k) {
      const int want_rank = k < n_even ? 2 * k : 2 * (k - n_even) + 1;
      CHECK(m[k] == want_rank, "merged: rank %d is world rank %d, expected %d", k, m[k],
            want_rank);
    }
    CHECK(compare(merged, MPI_COMM_WORLD) == (n == 2 ? MPI_CONGRUENT : MPI_SIMILAR),
          "merged vs world compares as %d", compare(merged, MPI_COMM_WORLD));
  }

  // --- Free everything ---------------------------------------------------------
  free_comm(&merged);
  free_comm(&inter);
  free_comm(&local);
  free_comm(&dgraph);
  free_comm(&graph);
  free_comm(&cart_col);
  free_comm(&cart_row);
  free_comm(&cart);
  if (excl_comm != MPI_COMM_NULL) free_comm(&excl_comm);
  if (even_comm != MPI_COMM_NULL) free_comm(&even_comm);
  free_comm(&shm);
  if (parity != MPI_COMM_NULL) free_comm(&parity);
  free_comm(&split);
  free_comm(&idup);
  free_comm(&dup);
  for (MPI_Group *g : {&remote_group, &diff_group, &inter_group, &union_group, &rev_group,
                       &excl_group, &range_group, &even_group, &dup_group, &world_group})
    free_group(g);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
