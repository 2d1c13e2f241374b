#include "callback_records.h"

#include "call.h"
#include "pilgrim/callback_records.h"
#include "recorder.h"

#include <mutex>
#include <unordered_map>

namespace pilgrim::rt {
namespace {

// The application's callbacks of one keyval (those of its object kind are set).
struct Bound {
  MPI_Comm_copy_attr_function *comm_copy = nullptr;
  MPI_Comm_delete_attr_function *comm_delete = nullptr;
  MPI_Type_copy_attr_function *type_copy = nullptr;
  MPI_Type_delete_attr_function *type_delete = nullptr;
  MPI_Win_copy_attr_function *win_copy = nullptr;
  MPI_Win_delete_attr_function *win_delete = nullptr;
};

// Wrapped by the call in progress on this thread, until its keyval exists.
thread_local Bound pending;
thread_local bool has_pending = false;

// Keyval value -> its callbacks. Never destroyed: callbacks may run during
// static destruction (MPI_Finalize called late).
std::mutex &table_lock() {
  static std::mutex *m = new std::mutex;
  return *m;
}
std::unordered_map<uint64_t, Bound> &table() {
  static auto *t = new std::unordered_map<uint64_t, Bound>;
  return *t;
}

Bound bound_to(int keyval) {
  std::lock_guard<std::mutex> g(table_lock());
  const auto it = table().find(handle_key(keyval));
  return it == table().end() ? Bound{} : it->second;
}

// A user callback is wrapped; NULL and predefined ones (MPI_COMM_DUP_FN,
// MPI_NULL_COPY_FN, ...) go to MPI unchanged.
template <class F> bool wraps(F *fn) {
  if (!fn || Recorder::get().callbacks.predefined(function_address(fn)))
    return false;
  has_pending = true;
  return true;
}

template <class H, class F>
void record_copy(uint16_t id, F *fn, const char *type, HandleKind kind, H object, int keyval,
                 void *extra, void *in, void *out, const int *flag, int rc) {
  Call c(id, Call::Nested{});
  if (!c.active())
    return;
  c.callback(function_address(fn), type);
  c.handle(kind, object);
  c.handle(HandleKind::Keyval, keyval);
  c.pointer(extra);
  c.pointer(in);
  // The copy exists only when the callback succeeded and set flag.
  const bool copied = rc == MPI_SUCCESS && flag_true(flag);
  c.pointer(copied && out ? *static_cast<void *const *>(out) : nullptr);
  if (rc == MPI_SUCCESS)
    c.values(flag, 1);
  else
    c.absent(); // a failed callback's flag means nothing
  c.finish_nested(rc);
}

template <class H, class F>
void record_delete(uint16_t id, F *fn, const char *type, HandleKind kind, H object, int keyval,
                   void *value, void *extra, int rc) {
  Call c(id, Call::Nested{});
  if (!c.active())
    return;
  c.callback(function_address(fn), type);
  c.handle(kind, object);
  c.handle(HandleKind::Keyval, keyval);
  c.pointer(value);
  c.pointer(extra);
  c.finish_nested(rc);
}

// The trampolines MPI calls. A keyval without a bound function cannot reach
// them; should one, nothing is copied and nothing fails.
int comm_copy(MPI_Comm old, int keyval, void *extra, void *in, void *out, int *flag) {
  MPI_Comm_copy_attr_function *fn = bound_to(keyval).comm_copy;
  if (!fn) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = fn(old, keyval, extra, in, out, flag);
  record_copy(kCommCopyRecord, fn, "MPI_Comm_copy_attr_function", HandleKind::Comm, old, keyval,
              extra, in, out, flag, rc);
  return rc;
}
int comm_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  MPI_Comm_delete_attr_function *fn = bound_to(keyval).comm_delete;
  if (!fn)
    return MPI_SUCCESS;
  const int rc = fn(comm, keyval, value, extra);
  record_delete(kCommDeleteRecord, fn, "MPI_Comm_delete_attr_function", HandleKind::Comm, comm,
                keyval, value, extra, rc);
  return rc;
}
int type_copy(MPI_Datatype old, int keyval, void *extra, void *in, void *out, int *flag) {
  MPI_Type_copy_attr_function *fn = bound_to(keyval).type_copy;
  if (!fn) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = fn(old, keyval, extra, in, out, flag);
  record_copy(kTypeCopyRecord, fn, "MPI_Type_copy_attr_function", HandleKind::Datatype, old, keyval,
              extra, in, out, flag, rc);
  return rc;
}
int type_delete(MPI_Datatype type, int keyval, void *value, void *extra) {
  MPI_Type_delete_attr_function *fn = bound_to(keyval).type_delete;
  if (!fn)
    return MPI_SUCCESS;
  const int rc = fn(type, keyval, value, extra);
  record_delete(kTypeDeleteRecord, fn, "MPI_Type_delete_attr_function", HandleKind::Datatype, type,
                keyval, value, extra, rc);
  return rc;
}
int win_copy(MPI_Win old, int keyval, void *extra, void *in, void *out, int *flag) {
  MPI_Win_copy_attr_function *fn = bound_to(keyval).win_copy;
  if (!fn) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = fn(old, keyval, extra, in, out, flag);
  record_copy(kWinCopyRecord, fn, "MPI_Win_copy_attr_function", HandleKind::Win, old, keyval, extra,
              in, out, flag, rc);
  return rc;
}
int win_delete(MPI_Win win, int keyval, void *value, void *extra) {
  MPI_Win_delete_attr_function *fn = bound_to(keyval).win_delete;
  if (!fn)
    return MPI_SUCCESS;
  const int rc = fn(win, keyval, value, extra);
  record_delete(kWinDeleteRecord, fn, "MPI_Win_delete_attr_function", HandleKind::Win, win, keyval,
                value, extra, rc);
  return rc;
}

} // namespace

MPI_Comm_copy_attr_function *record_MPI_Comm_copy_attr_function(MPI_Comm_copy_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.comm_copy = fn;
  return comm_copy;
}
MPI_Comm_delete_attr_function *
record_MPI_Comm_delete_attr_function(MPI_Comm_delete_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.comm_delete = fn;
  return comm_delete;
}
// MPI_Keyval_create's callbacks are called as a communicator's.
MPI_Copy_function *record_MPI_Copy_function(MPI_Copy_function *fn) {
  return record_MPI_Comm_copy_attr_function(fn);
}
MPI_Delete_function *record_MPI_Delete_function(MPI_Delete_function *fn) {
  return record_MPI_Comm_delete_attr_function(fn);
}
MPI_Type_copy_attr_function *record_MPI_Type_copy_attr_function(MPI_Type_copy_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.type_copy = fn;
  return type_copy;
}
MPI_Type_delete_attr_function *
record_MPI_Type_delete_attr_function(MPI_Type_delete_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.type_delete = fn;
  return type_delete;
}
MPI_Win_copy_attr_function *record_MPI_Win_copy_attr_function(MPI_Win_copy_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.win_copy = fn;
  return win_copy;
}
MPI_Win_delete_attr_function *
record_MPI_Win_delete_attr_function(MPI_Win_delete_attr_function *fn) {
  if (!wraps(fn))
    return fn;
  pending.win_delete = fn;
  return win_delete;
}

void bind_recorded_callbacks(uint64_t key) {
  std::lock_guard<std::mutex> g(table_lock());
  if (has_pending)
    table()[key] = pending;
  else
    table().erase(key);
  pending = Bound{};
  has_pending = false;
}

} // namespace pilgrim::rt
