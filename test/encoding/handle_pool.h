// Real MPI handles for synthetic calls, made with PMPI in this singleton MPI
// process outside any traced call: the encoders ask MPI about communicators,
// groups and windows (ranks, sizes, topology) and run id agreements on the
// communicators they see created, so every handle they meet is a live one.
//
// Each handle is returned as an Element (call_model.h): its value (`key`, as
// runtime/common/handle_key.h spells it) and what a trace should say of it (null,
// the predefined name, or a user handle).
#pragma once

#include "call_model.h"

#include <mpi.h>

#include <map>
#include <string>
#include <vector>

namespace pilgrim::enctest {

// Communicators with the topologies that array lengths depend on.
enum class CommShape : uint8_t {
  Plain,     // dups of MPI_COMM_WORLD
  DistGraph, // a distributed graph on MPI_COMM_SELF: in-degree 2, out-degree 3
  Cart3,     // a 1x1x1 grid, periods {1, 0, 1}: cart_dim 3, 6 neighbors
  Cart1,     // a periodic grid of one: cart_dim 1, 2 neighbors
};

class HandlePool {
public:
  // Files are opened in `scratch_dir` (deleted on close).
  explicit HandlePool(std::string scratch_dir);
  ~HandlePool();
  HandlePool(const HandlePool &) = delete;
  HandlePool &operator=(const HandlePool &) = delete;

  Element null(HandleKind k) const;
  // The j-th predefined handle of the kind (cycling), or its null handle for
  // kinds without predefined handles (File, Win, Request, Session).
  Element predefined(HandleKind k, int j) const;
  // The j-th long-lived user handle of the kind (cycling; requests never
  // repeat within 16), made on first use. Communicators: of shape `shape`.
  Element user(HandleKind k, int j, CommShape shape = CommShape::Plain);
  // A new handle, as a creation call returns it; freed by release_fresh().
  Element fresh(HandleKind k);
  void release_fresh();

  // The caller's rank and grid in a communicator, group or window.
  RankBase base(HandleKind k, uint64_t key) const;
  // A length program's fact (LenOp Peers, CommSize, InDegree, OutDegree,
  // GroupSize, CartDim) about a communicator or group, asked of MPI.
  int64_t fact(LenOp op, HandleKind k, uint64_t key) const;

  // Addresses that stand for buffers, pointers and opaque arguments.
  uint64_t buffer_address(int slot) const;
  uint64_t pointer_address(int slot) const;
  void *opaque_address() { return &opaque_; }
  // An address the runtime has pinned (as MPI_Get_address's location would
  // be), so that values at most 4095 bytes above it are coded against it: a
  // page of its own, mapped above 4 GiB also in a program that is not
  // position-independent (the MPICH build links this test with -no-pie).
  static uint64_t anchor_address();

private:
  uint64_t make(HandleKind k, CommShape shape);
  void destroy(HandleKind k, uint64_t key);
  std::map<std::pair<int, int>, std::vector<uint64_t>> users_; // (kind, shape) -> handles
  std::vector<std::pair<HandleKind, uint64_t>> fresh_;
  std::map<uint64_t, uint64_t> sends_; // message -> the send that made it
  std::string scratch_dir_;
  int files_ = 0, messages_ = 0;
  char buffers_[64 * 64] = {};
  char pointers_[16 * 64] = {};
  int opaque_ = 0;
};

} // namespace pilgrim::enctest
