// What the runtime knows of each communicator: the caller's rank, the sizes
// of its groups and its topology's degrees, cached by handle value so that
// rank encoding and array lengths cost a lookup, not an MPI call.
#pragma once

#include "call_context.h"
#include "common/handle_key.h"
#include "common/flat_map.h"

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace pilgrim::rt {

struct CommFacts {
  uint64_t key = 0;
  uint64_t encoded_id = 0; // the comm's handle encoding, for the trace's comm table
  int rank = -1, size = 0, remote_size = -1;
  int indegree = -1, outdegree = -1, cart_dims = -1;
  int cart = -1;                        // index of its grid in CommRegistry::cart(), -1 if none
  uint32_t group = 0, remote_group = 0; // history entries: the groups' hashes (comm_membership.h)
};

// The process grid of a Cartesian communicator, for Cartesian rank codes.
struct CartFacts {
  static constexpr int kMaxDims = 16; // larger grids are coded by rank offsets
  int ndims = 0;
  int dims[kMaxDims] = {}, periods[kMaxDims] = {};
};

class CommRegistry {
public:
  void set_world(MPI_Comm world);
  const CommFacts &facts(MPI_Comm comm);
  int rank_of(MPI_Comm comm) {
    if (handle_matches(comm, world_key_))
      return world_rank_;
    return facts(comm).rank;
  }
  RankCtx ctx_of(MPI_Comm comm) {
    if (handle_matches(comm, world_key_))
      return {world_rank_, -1};
    const CommFacts &f = facts(comm);
    return {f.rank, f.cart, f.cart >= 0 ? cart_gen_[static_cast<size_t>(f.cart)] : 0};
  }
  const CartFacts &cart(int index) const { return carts_[static_cast<size_t>(index)]; }
  // Whether `ctx`'s grid is still the one it was taken from.
  bool cart_current(const RankCtx &ctx) const {
    return ctx.cart >= 0 && cart_gen_[static_cast<size_t>(ctx.cart)] == ctx.cart_gen;
  }
  void forget(uint64_t key);
  void set_encoded_id(MPI_Comm comm, uint64_t encoded);
  // A communicator whose facts are known without asking MPI (an idup'ed one,
  // whose creation may not have completed yet: a dup has its parent's).
  void add_history(const CommFacts &f) { history_.push_back(f); }
  // Every communicator the run created, in creation order, with the id
  // (encoded_id, agreed by its members) it had then: ids are reused after
  // MPI_Comm_free, so one id may appear more than once. An idup'ed
  // communicator is listed when its id is agreed, not at the idup call.
  const std::vector<CommFacts> &history() const { return history_; }
  size_t memory_bytes() const {
    return map_.memory_bytes() + facts_.capacity() * sizeof(CommFacts) +
           carts_.capacity() * sizeof(CartFacts) + cart_gen_.capacity() * sizeof(uint32_t);
  }

private:
  static bool handle_matches(MPI_Comm c, uint64_t key) { return handle_key(c) == key; }
  void fill_topology(CommFacts &f, MPI_Comm comm);
  FlatMap map_;
  std::vector<CommFacts> facts_;
  std::vector<uint32_t> free_;
  std::vector<CartFacts> carts_;
  std::vector<uint32_t> cart_gen_; // per grid slot: how often it was freed
  std::vector<int> free_carts_;
  std::vector<CommFacts> history_;
  uint64_t world_key_ = 0;
  int world_rank_ = 0;
};

} // namespace pilgrim::rt
