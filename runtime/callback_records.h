// The application's attribute callbacks, wrapped so that each invocation is
// recorded (pilgrim/callback_records.h, docs/FORMAT.md §8.4).
//
// The wrapper of a keyval-creating function (MPI_Comm_create_keyval,
// MPI_Type_create_keyval, MPI_Win_create_keyval, MPI_Keyval_create) hands
// MPI, instead of each user callback, a trampoline of the same type from
// record_<callback type>() (sidecar `record: true`); the user's functions
// are bound to the keyval MPI returns (bind_recorded_callbacks, called when
// the keyval gets its id). A trampoline finds the user's function by the
// keyval MPI passes it, calls it, and records what it returned as a nested
// record (Call::Nested) of the MPI call in progress. Predefined callbacks
// (MPI_COMM_DUP_FN, MPI_NULL_COPY_FN, ...) are passed unchanged: what they
// do is known.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace pilgrim::rt {

MPI_Comm_copy_attr_function *record_MPI_Comm_copy_attr_function(MPI_Comm_copy_attr_function *fn);
MPI_Comm_delete_attr_function *
record_MPI_Comm_delete_attr_function(MPI_Comm_delete_attr_function *fn);
MPI_Copy_function *record_MPI_Copy_function(MPI_Copy_function *fn);
MPI_Delete_function *record_MPI_Delete_function(MPI_Delete_function *fn);
MPI_Type_copy_attr_function *record_MPI_Type_copy_attr_function(MPI_Type_copy_attr_function *fn);
MPI_Type_delete_attr_function *
record_MPI_Type_delete_attr_function(MPI_Type_delete_attr_function *fn);
MPI_Win_copy_attr_function *record_MPI_Win_copy_attr_function(MPI_Win_copy_attr_function *fn);
MPI_Win_delete_attr_function *record_MPI_Win_delete_attr_function(MPI_Win_delete_attr_function *fn);

// The same for a Fortran program's callbacks (the Fortran entry points of
// the keyval creators, generator/fortran_forwarding.h): `fn` is a Fortran
// procedure, and the trampoline MPI gets has the Fortran signature (every
// argument by reference; values INTEGER(KIND=MPI_ADDRESS_KIND), INTEGER for
// MPI_Keyval_create's). Each invocation is recorded as the C callback's.
void *record_fortran_MPI_Comm_copy_attr_function(void *fn);
void *record_fortran_MPI_Comm_delete_attr_function(void *fn);
void *record_fortran_MPI_Copy_function(void *fn);
void *record_fortran_MPI_Delete_function(void *fn);
void *record_fortran_MPI_Type_copy_attr_function(void *fn);
void *record_fortran_MPI_Type_delete_attr_function(void *fn);
void *record_fortran_MPI_Win_copy_attr_function(void *fn);
void *record_fortran_MPI_Win_delete_attr_function(void *fn);

// The keyval `key` was just created by this thread's call: the callbacks
// that call wrapped belong to it (a recycled keyval value forgets its old
// ones).
void bind_recorded_callbacks(uint64_t key);

} // namespace pilgrim::rt
