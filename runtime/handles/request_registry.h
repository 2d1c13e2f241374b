// Symbolic ids for requests. A request handle's value does not identify a
// request: MPICH and Open MPI hand out one shared value for every send that
// completed at once, or for MPI_PROC_NULL operations, so several outstanding
// requests can carry the same value. Entries are therefore chained per value
// and told apart by the address of the application's MPI_Request variable.
//
// Ids come from one pool per call signature with the request left out (the
// Pilgrim paper, section 2.4.2), so a Waitany loop whose completion order
// varies still draws the same ids in every iteration. The id written to the
// trace is the Cantor pairing of (pool, slot) (pilgrim/request_id.h).
#pragma once

#include "memory/address_registry.h"
#include "call_context.h"
#include "common/flat_map.h"
#include "signatures/signature_table.h"
#include "common/symbol_pool.h"

#include <vector>

namespace pilgrim::rt {

class RequestRegistry {
public:
  static constexpr uint32_t kNone = 0xffffffffu;

  // A request just created by a call whose other bytes are `sig[0..n)`.
  // Returns the symbolic id. A request of the off region (info.off,
  // regions.h) takes its slot from a pool of its own, outside the pools the
  // trace names (`sig` is not read): the on region's ids stay those of a run
  // without it.
  // It holds the buffers `held[0..nheld)` of `buffers` until it is released.
  uint64_t create(uint64_t key, const void *where, const uint8_t *sig, size_t n,
                  const ReqInfo &info, const void *const *held, int nheld);
  // The entry for a request handle value seen at `where`; kNone if unknown.
  // Entries claimed earlier in the same call are skipped.
  uint32_t find(uint64_t key, const void *where);
  // An entry for a request we never saw created (e.g. made inside MPI).
  uint32_t adopt(uint64_t key, const void *where);
  // The request is gone: its id and the buffers it held are free again.
  void release(uint32_t entry, AddressRegistry &buffers);
  void unclaim_all();
  // Whether the call in progress claimed any entry (unclaim_all() has work).
  bool has_claims() const { return !claimed_.empty(); }

  uint64_t id(uint32_t entry) const { return entries_[entry].id; }
  const ReqInfo &info(uint32_t entry) const { return entries_[entry].info; }
  size_t memory_bytes() const;

private:
  struct Entry {
    uint64_t key = 0;
    const void *where = nullptr;
    uint64_t id = 0;
    uint32_t pool = 0, slot = 0;
    uint32_t next = kNone; // next entry with the same handle value
    bool live = false, claimed = false;
    uint8_t nheld = 0;
    const void *held[4];
    ReqInfo info;
  };
  static constexpr uint32_t kOffPool = 0xffffffffu;
  SymbolPool &pool_(uint32_t pool) { return pool == kOffPool ? off_pool_ : pools_[pool]; }
  uint32_t new_entry();
  void link(uint32_t e);

  std::vector<Entry> entries_;
  std::vector<uint32_t> free_entries_;
  std::vector<uint32_t> claimed_;
  FlatMap heads_;            // handle value -> first entry
  SignatureTable pool_keys_; // signature without request -> pool index
  std::vector<SymbolPool> pools_;
  SymbolPool off_pool_; // the off region's requests
};

} // namespace pilgrim::rt
