#include "comm_registry.h"

#include "comm_membership.h"
#include "common/handle_key.h"

namespace pilgrim::rt {

void CommRegistry::set_world(MPI_Comm world) {
  world_key_ = handle_key(world);
  PMPI_Comm_rank(world, &world_rank_);
}

const CommFacts &CommRegistry::facts(MPI_Comm comm) {
  static const CommFacts kNull{};
  if (comm == MPI_COMM_NULL)
    return kNull;
  uint64_t key = handle_key(comm);
  if (const uint32_t *i = map_.find(key))
    return facts_[*i];
  CommFacts f;
  f.key = key;
  PMPI_Comm_rank(comm, &f.rank);
  PMPI_Comm_size(comm, &f.size);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    PMPI_Comm_remote_size(comm, &f.remote_size);
  fill_topology(f, comm);
  uint32_t index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
    facts_[index] = f;
  } else {
    index = static_cast<uint32_t>(facts_.size());
    facts_.push_back(f);
  }
  map_.set(key, index);
  return facts_[index];
}

void CommRegistry::fill_topology(CommFacts &f, MPI_Comm comm) {
  int status = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &status);
  if (status == MPI_CART) {
    PMPI_Cartdim_get(comm, &f.cart_dims);
    f.indegree = f.outdegree = 2 * f.cart_dims;
    if (f.cart_dims >= 0 && f.cart_dims <= CartFacts::kMaxDims) {
      CartFacts g;
      g.ndims = f.cart_dims;
      int coords[CartFacts::kMaxDims];
      PMPI_Cart_get(comm, g.ndims, g.dims, g.periods, coords);
      if (!free_carts_.empty()) {
        f.cart = free_carts_.back();
        free_carts_.pop_back();
        carts_[static_cast<size_t>(f.cart)] = g;
      } else {
        f.cart = static_cast<int>(carts_.size());
        carts_.push_back(g);
        cart_gen_.push_back(0);
      }
    }
  } else if (status == MPI_GRAPH) {
    int n = 0;
    PMPI_Graph_neighbors_count(comm, f.rank, &n);
    f.indegree = f.outdegree = n;
  } else if (status == MPI_DIST_GRAPH) {
    int weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &f.indegree, &f.outdegree, &weighted);
  }
}

void CommRegistry::forget(uint64_t key) {
  if (const uint32_t *i = map_.find(key)) {
    if (facts_[*i].cart >= 0) {
      ++cart_gen_[static_cast<size_t>(facts_[*i].cart)];
      free_carts_.push_back(facts_[*i].cart);
    }
    free_.push_back(*i);
    map_.erase(key);
  }
}

void CommRegistry::set_encoded_id(MPI_Comm comm, uint64_t encoded) {
  if (comm == MPI_COMM_NULL || encoded == 0)
    return;
  CommFacts f = facts(comm);
  f.encoded_id = encoded;
  const GroupHashes g = group_hashes(comm);
  f.group = g.local;
  f.remote_group = g.remote;
  history_.push_back(f);
}

} // namespace pilgrim::rt
