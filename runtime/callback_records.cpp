#include "callback_records.h"

#include "call_inline.h"
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
  // A Fortran program's (record_fortran_*): its object kind is the
  // trampoline's that MPI got.
  void *fortran_copy = nullptr;
  void *fortran_delete = nullptr;
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

// `seen_only`: the object came from a Fortran handle MPI passed, which
// Open MPI 4.1 gets wrong in delete callbacks (a stale or garbage value):
// one that names no object the tracer knows is recorded as null rather
// than given an id, which would shift every later id of the rank.
template <class H, class F>
void record_delete(uint16_t id, F *fn, const char *type, HandleKind kind, H object, int keyval,
                   void *value, void *extra, int rc, bool seen_only = false) {
  Call c(id, Call::Nested{});
  if (!c.active())
    return;
  c.callback(function_address(fn), type);
  if (seen_only)
    c.handle_seen(kind, object);
  else
    c.handle(kind, object);
  c.handle(HandleKind::Keyval, keyval);
  c.pointer(value);
  c.pointer(extra);
  c.finish_nested(rc);
}

// What differs between the object kinds: handle type, callback types, where
// their functions are bound, and the records' ids and type names.
#define PILGRIM_ATTR_KIND(Name, Handle, Prefix, KindValue, Record, copy_member, delete_member,     \
                          Conv)                                                                    \
  struct Name {                                                                                    \
    using H = Handle;                                                                              \
    static H from_fortran(MPI_Fint f) { return PMPI_##Conv##_f2c(f); }                             \
    using Copy = Prefix##_copy_attr_function;                                                      \
    using Delete = Prefix##_delete_attr_function;                                                  \
    static constexpr HandleKind kind = HandleKind::KindValue;                                      \
    static constexpr uint16_t copy_id = k##Record##CopyRecord;                                     \
    static constexpr uint16_t delete_id = k##Record##DeleteRecord;                                 \
    static constexpr const char *copy_type = #Prefix "_copy_attr_function";                        \
    static constexpr const char *delete_type = #Prefix "_delete_attr_function";                    \
    static Copy *&copy_of(Bound &b) { return b.copy_member; }                                      \
    static Delete *&delete_of(Bound &b) { return b.delete_member; }                                \
  }
PILGRIM_ATTR_KIND(CommAttr, MPI_Comm, MPI_Comm, Comm, Comm, comm_copy, comm_delete, Comm);
PILGRIM_ATTR_KIND(TypeAttr, MPI_Datatype, MPI_Type, Datatype, Type, type_copy, type_delete, Type);
PILGRIM_ATTR_KIND(WinAttr, MPI_Win, MPI_Win, Win, Win, win_copy, win_delete, Win);
#undef PILGRIM_ATTR_KIND

// The trampolines MPI calls. A keyval without a bound function cannot reach
// them; should one, nothing is copied and nothing fails.
template <class K>
int copy_trampoline(typename K::H old, int keyval, void *extra, void *in, void *out, int *flag) {
  Bound b = bound_to(keyval);
  typename K::Copy *fn = K::copy_of(b);
  if (!fn) {
    *flag = 0;
    return MPI_SUCCESS;
  }
  const int rc = fn(old, keyval, extra, in, out, flag);
  record_copy(K::copy_id, fn, K::copy_type, K::kind, old, keyval, extra, in, out, flag, rc);
  return rc;
}
template <class K>
int delete_trampoline(typename K::H object, int keyval, void *value, void *extra) {
  Bound b = bound_to(keyval);
  typename K::Delete *fn = K::delete_of(b);
  if (!fn)
    return MPI_SUCCESS;
  const int rc = fn(object, keyval, value, extra);
  record_delete(K::delete_id, fn, K::delete_type, K::kind, object, keyval, value, extra, rc);
  return rc;
}

// The function MPI gets for the application's `fn`: a trampoline bound to it
// once the keyval exists (bind_recorded_callbacks), or `fn` itself.
template <class K> typename K::Copy *wrap_copy(typename K::Copy *fn) {
  if (!wraps(fn))
    return fn;
  K::copy_of(pending) = fn;
  return copy_trampoline<K>;
}
template <class K> typename K::Delete *wrap_delete(typename K::Delete *fn) {
  if (!wraps(fn))
    return fn;
  K::delete_of(pending) = fn;
  return delete_trampoline<K>;
}

// A Fortran program's callbacks, called by MPI with Fortran arguments: every
// argument by reference, handles as INTEGERs, values as V
// (INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for MPI_Keyval_create's),
// flag a LOGICAL, the result in ierr. Recorded as a C callback's call: the
// object through f2c, each value as the pointer a C program would see.
template <class V>
using FortranCopy = void(MPI_Fint *, MPI_Fint *, V *, V *, V *, MPI_Fint *, MPI_Fint *);
template <class V> using FortranDelete = void(MPI_Fint *, MPI_Fint *, V *, V *, MPI_Fint *);

void *value_pointer(MPI_Aint v) { return reinterpret_cast<void *>(v); }

template <class K, class V>
void fortran_copy_trampoline(MPI_Fint *old, MPI_Fint *keyval, V *extra, V *in, V *out,
                             MPI_Fint *flag, MPI_Fint *ierr) {
  auto *fn = reinterpret_cast<FortranCopy<V> *>(bound_to(*keyval).fortran_copy);
  if (!fn) {
    *flag = 0;
    *ierr = MPI_SUCCESS;
    return;
  }
  fn(old, keyval, extra, in, out, flag, ierr);
  void *copy = value_pointer(*out);
  const int copied = *flag ? 1 : 0;
  record_copy(K::copy_id, fn, K::copy_type, K::kind, K::from_fortran(*old), *keyval,
              value_pointer(*extra), value_pointer(*in), &copy, &copied, *ierr);
}
template <class K, class V>
void fortran_delete_trampoline(MPI_Fint *object, MPI_Fint *keyval, V *value, V *extra,
                               MPI_Fint *ierr) {
  auto *fn = reinterpret_cast<FortranDelete<V> *>(bound_to(*keyval).fortran_delete);
  if (!fn) {
    *ierr = MPI_SUCCESS;
    return;
  }
  fn(object, keyval, value, extra, ierr);
  record_delete(K::delete_id, fn, K::delete_type, K::kind, K::from_fortran(*object), *keyval,
                value_pointer(*value), value_pointer(*extra), *ierr, true);
}

template <class K, class V> void *wrap_fortran_copy(void *fn) {
  if (!wraps(fn))
    return fn;
  pending.fortran_copy = fn;
  return reinterpret_cast<void *>(fortran_copy_trampoline<K, V>);
}
template <class K, class V> void *wrap_fortran_delete(void *fn) {
  if (!wraps(fn))
    return fn;
  pending.fortran_delete = fn;
  return reinterpret_cast<void *>(fortran_delete_trampoline<K, V>);
}

} // namespace

MPI_Comm_copy_attr_function *record_MPI_Comm_copy_attr_function(MPI_Comm_copy_attr_function *fn) {
  return wrap_copy<CommAttr>(fn);
}
MPI_Comm_delete_attr_function *
record_MPI_Comm_delete_attr_function(MPI_Comm_delete_attr_function *fn) {
  return wrap_delete<CommAttr>(fn);
}
// MPI_Keyval_create's callbacks are called as a communicator's.
MPI_Copy_function *record_MPI_Copy_function(MPI_Copy_function *fn) {
  return record_MPI_Comm_copy_attr_function(fn);
}
MPI_Delete_function *record_MPI_Delete_function(MPI_Delete_function *fn) {
  return record_MPI_Comm_delete_attr_function(fn);
}
MPI_Type_copy_attr_function *record_MPI_Type_copy_attr_function(MPI_Type_copy_attr_function *fn) {
  return wrap_copy<TypeAttr>(fn);
}
MPI_Type_delete_attr_function *
record_MPI_Type_delete_attr_function(MPI_Type_delete_attr_function *fn) {
  return wrap_delete<TypeAttr>(fn);
}
MPI_Win_copy_attr_function *record_MPI_Win_copy_attr_function(MPI_Win_copy_attr_function *fn) {
  return wrap_copy<WinAttr>(fn);
}
MPI_Win_delete_attr_function *
record_MPI_Win_delete_attr_function(MPI_Win_delete_attr_function *fn) {
  return wrap_delete<WinAttr>(fn);
}

void *record_fortran_MPI_Comm_copy_attr_function(void *fn) {
  return wrap_fortran_copy<CommAttr, MPI_Aint>(fn);
}
void *record_fortran_MPI_Comm_delete_attr_function(void *fn) {
  return wrap_fortran_delete<CommAttr, MPI_Aint>(fn);
}
void *record_fortran_MPI_Copy_function(void *fn) {
  return wrap_fortran_copy<CommAttr, MPI_Fint>(fn);
}
void *record_fortran_MPI_Delete_function(void *fn) {
  return wrap_fortran_delete<CommAttr, MPI_Fint>(fn);
}
void *record_fortran_MPI_Type_copy_attr_function(void *fn) {
  return wrap_fortran_copy<TypeAttr, MPI_Aint>(fn);
}
void *record_fortran_MPI_Type_delete_attr_function(void *fn) {
  return wrap_fortran_delete<TypeAttr, MPI_Aint>(fn);
}
void *record_fortran_MPI_Win_copy_attr_function(void *fn) {
  return wrap_fortran_copy<WinAttr, MPI_Aint>(fn);
}
void *record_fortran_MPI_Win_delete_attr_function(void *fn) {
  return wrap_fortran_delete<WinAttr, MPI_Aint>(fn);
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
