// Symbolic ids for the handles of one kind: predefined handles by their index
// in the format's name table, user handles from a SymbolPool or, for the
// kinds whose ids the members agree on (communicators, windows, files), from
// an AgreedIdSet filled by id_agreement.cpp.
#pragma once

#include "common/agreed_id_set.h"
#include "common/flat_map.h"
#include "common/symbol_pool.h"

#include <cstdint>

namespace pilgrim::rt {

class HandleRegistry {
public:
  void set_null(uint64_t key) {
    null_key_ = key;
    has_null_ = true;
  }
  // Keyvals: MPI keeps a freed keyval alive while attributes use it, and the
  // program may go on using its value (a copy of the variable MPI reset), so
  // a freed handle keeps its id until MPI hands its value out again
  // (create() then gives the new keyval an id).
  void keep_after_free() { keep_after_free_ = true; }
  void add_predefined(uint64_t key, uint32_t index) {
    has_last_ = false;
    predefined_.set(key, index);
  }

  // Handle element encoding (docs/FORMAT.md): 0 null, 2k+1 predefined k,
  // 2u+2 user id u. A handle never seen before gets a fresh id.
  uint64_t encode(uint64_t key) {
    if (key == last_key_ && has_last_)
      return last_encoded_; // the same handle as the previous call's
    if (has_null_ && key == null_key_)
      return 0;
    uint64_t e = encode_lookup(key);
    last_key_ = key;
    last_encoded_ = e;
    has_last_ = true;
    return e;
  }
  // As encode(), but a handle never seen gets no id: it is coded as null.
  // For handles that MPI hands a callback and that may name no object the
  // program has (Open MPI 4.1's Fortran delete callbacks get a stale or
  // garbage handle): giving those an id would shift every later id.
  uint64_t encode_seen(uint64_t key) {
    if (has_null_ && key == null_key_)
      return 0;
    if (const uint32_t *p = predefined_.find(key))
      return 2ull * *p + 1;
    if (const uint32_t *u = user_.find(key))
      return 2ull * *u + 2;
    return 0;
  }
  // A handle MPI just created: a new id even if the value was seen before
  // (its earlier object was freed without our noticing).
  uint64_t create(uint64_t key) {
    has_last_ = false;
    if (has_null_ && key == null_key_)
      return 0;
    if (const uint32_t *p = predefined_.find(key))
      return 2ull * *p + 1;
    if (const uint32_t *u = user_.find(key)) {
      if (agreed_)
        agreed_ids_.release(*u);
      else
        pool_.release(*u);
    }
    uint32_t id;
    if (agreed_) {
      id = agreed_ids_.acquire_local();
      own_.set(key, 1);
    } else {
      id = pool_.acquire();
    }
    user_.set(key, id);
    return 2ull * id + 2;
  }
  void release(uint64_t key) {
    has_last_ = false;
    if (keep_after_free_)
      return;
    if (const uint32_t *u = user_.find(key)) {
      if (agreed_)
        agreed_ids_.release(*u);
      else
        pool_.release(*u);
      user_.erase(key);
      own_.erase(key);
    }
  }

  // --- kinds with agreed ids ------------------------------------------------
  // Called once at MPI_Init for Comm, Win and File. `resolve` is asked, before
  // a handle never seen gets an id of its own, whether an agreement for it is
  // still in flight (MPI_Comm_idup); it binds the handle if so.
  using ResolveHook = void (*)(uint64_t key);
  void set_agreed(ResolveHook resolve) {
    agreed_ = true;
    resolve_ = resolve;
  }
  bool agreed() const { return agreed_; }
  AgreedIdSet &agreed_ids() { return agreed_ids_; }
  // The handle `key` (just created) has the id `id`, agreed by its members
  // unless `own` (this rank chose it alone); returns its encoding.
  uint64_t bind(uint64_t key, uint32_t id, bool own = false) {
    has_last_ = false;
    if (const uint32_t *u = user_.find(key))
      agreed_ids_.release(*u); // a recycled value whose free we missed
    user_.set(key, id);
    if (own)
      own_.set(key, 1);
    else
      own_.erase(key);
    return 2ull * id + 2;
  }
  // The encoding of a predefined handle, or of a user handle whose id its
  // members agreed on (not one this rank numbered alone: a handle never seen
  // created). False for those and for unknown or null handles.
  bool agreed_code(uint64_t key, uint64_t &code) const {
    if (has_null_ && key == null_key_)
      return false;
    if (const uint32_t *p = predefined_.find(key)) {
      code = 2ull * *p + 1;
      return true;
    }
    const uint32_t *u = user_.find(key);
    if (!u || own_.find(key))
      return false;
    code = 2ull * *u + 2;
    return true;
  }
  // A predefined or null handle: its encoding; 0 with `known` false otherwise.
  uint64_t encode_fixed(uint64_t key, bool &known) const {
    known = true;
    if (has_null_ && key == null_key_)
      return 0;
    if (const uint32_t *p = predefined_.find(key))
      return 2ull * *p + 1;
    known = false;
    return 0;
  }
  bool is_null(uint64_t key) const { return has_null_ && key == null_key_; }
  size_t memory_bytes() const {
    return predefined_.memory_bytes() + user_.memory_bytes() + own_.memory_bytes();
  }

private:
  uint64_t encode_lookup(uint64_t key) {
    if (const uint32_t *p = predefined_.find(key))
      return 2ull * *p + 1;
    if (const uint32_t *u = user_.find(key))
      return 2ull * *u + 2;
    return encode_unseen(key);
  }
  // A handle never seen before (not on the hot path of a traced loop).
  uint64_t encode_unseen(uint64_t key) {
    uint32_t id;
    if (agreed_) {
      if (resolve_) {
        resolve_(key); // an idup whose agreement is still in flight
        if (const uint32_t *u = user_.find(key))
          return 2ull * *u + 2;
      }
      id = agreed_ids_.acquire_local();
      own_.set(key, 1);
    } else {
      id = pool_.acquire();
    }
    user_.set(key, id);
    return 2ull * id + 2;
  }
  FlatMap predefined_, user_;
  FlatMap own_; // agreed kinds: user handles whose id is this rank's alone
  SymbolPool pool_;
  AgreedIdSet agreed_ids_;
  bool agreed_ = false;
  bool keep_after_free_ = false;
  ResolveHook resolve_ = nullptr;
  uint64_t null_key_ = 0;
  bool has_null_ = false;
  uint64_t last_key_ = 0, last_encoded_ = 0;
  bool has_last_ = false;
};

} // namespace pilgrim::rt
