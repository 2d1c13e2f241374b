// Predefined handle and callback names. A handle element 2k+1 of kind K means
// "predefined handle number k of kind K"; these tables give k its name.
//
// THE ORDER IS PART OF THE TRACE FORMAT: entries are never reordered,
// renamed or removed; new names are only appended (docs/FORMAT.md,
// "Predefined names"). Names only, no mpi.h dependency: the runtime maps
// its MPI library's values onto these indices itself (`#ifdef NAME`).
#pragma once

#include <cstddef>

#include "pilgrim/function_table.h"

namespace pilgrim {

struct NameTable {
  const char *const *names;
  size_t count;
  const char *operator[](size_t k) const { return k < count ? names[k] : nullptr; }
};

extern const char *const kPredefinedDatatypeNames[];
extern const size_t kPredefinedDatatypeCount;
extern const char *const kPredefinedCommNames[];
extern const size_t kPredefinedCommCount;
extern const char *const kPredefinedGroupNames[];
extern const size_t kPredefinedGroupCount;
extern const char *const kPredefinedOpNames[];
extern const size_t kPredefinedOpCount;
extern const char *const kPredefinedErrhandlerNames[];
extern const size_t kPredefinedErrhandlerCount;
extern const char *const kPredefinedInfoNames[];
extern const size_t kPredefinedInfoCount;
extern const char *const kPredefinedMessageNames[];
extern const size_t kPredefinedMessageCount;
extern const char *const kPredefinedKeyvalNames[];
extern const size_t kPredefinedKeyvalCount;
extern const char *const kPredefinedCallbackNames[];
extern const size_t kPredefinedCallbackCount;

// The predefined names of a kind (empty table for File, Win, Request,
// Session, None and out-of-range kinds).
NameTable predefined_handle_names(HandleKind kind);

// The name of the kind's null handle (element 0): "MPI_COMM_NULL",
// "MPI_KEYVAL_INVALID", ...; "NULL" for HandleKind::None / unknown kinds.
const char *null_handle_name(HandleKind kind);

// The prefix pilgrim-dump prints before a user symbolic id: "comm" (comm#3),
// "type", "req", ...; "handle" for None / unknown kinds.
const char *handle_id_prefix(HandleKind kind);

NameTable predefined_callback_names();

// Index of `name` in the kind's table (or the callback table), -1 if absent.
int find_predefined_handle(HandleKind kind, const char *name);
int find_predefined_callback(const char *name);

} // namespace pilgrim
