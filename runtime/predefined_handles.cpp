// Maps this MPI library's predefined handles and callbacks onto the format's
// stable name tables (pilgrim/predefined_handles.h). Every name is guarded
// with #ifdef: a constant the library lacks is simply not registered.
#include "recorder.h"

#include "pilgrim/predefined_handles.h"

#include <cstdio>
#include <fcntl.h>
#include <unistd.h>

// MPI_NULL_COPY_FN and friends are deprecated: registered all the same.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// The Fortran library's predefined callbacks (gfortran's names; Open MPI's
// libmpi and MPICH's libmpifort define them), which a Fortran program passes
// for MPI_COMM_NULL_COPY_FN and friends. Weak: null where the process has
// none.
extern "C" {
#define PILGRIM_FORTRAN_CALLBACK_DECL(f) void f() __attribute__((weak));
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_comm_null_copy_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_comm_null_delete_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_comm_dup_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_type_null_copy_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_type_null_delete_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_type_dup_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_win_null_copy_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_win_null_delete_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_win_dup_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_null_copy_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_null_delete_fn_)
PILGRIM_FORTRAN_CALLBACK_DECL(mpi_dup_fn_)
#undef PILGRIM_FORTRAN_CALLBACK_DECL
}

namespace pilgrim::rt {
namespace {

template <class H> void add(Recorder &r, HandleKind k, const char *name, H value) {
  int index = find_predefined_handle(k, name);
  if (index >= 0)
    r.handles[static_cast<int>(k)].add_predefined(handle_key(value), static_cast<uint32_t>(index));
}

template <class F> void add_callback(Recorder &r, const char *name, F fn, const char *type) {
  const void *p = function_address(fn);
  int index = find_predefined_callback(name);
  if (!p || index < 0)
    return;
  if (!r.callbacks.predefined(p)) // a parameter of another type: the first name
    r.callbacks.add_predefined(p, static_cast<uint32_t>(index));
  r.predefined_callbacks.push_back({p, static_cast<uint32_t>(index), type});
}

} // namespace

void Recorder::setup_predefined() {
  using K = HandleKind;
  handles[static_cast<int>(K::Comm)].set_null(handle_key(MPI_COMM_NULL));
  handles[static_cast<int>(K::Group)].set_null(handle_key(MPI_GROUP_NULL));
  handles[static_cast<int>(K::Datatype)].set_null(handle_key(MPI_DATATYPE_NULL));
  handles[static_cast<int>(K::Op)].set_null(handle_key(MPI_OP_NULL));
  handles[static_cast<int>(K::Info)].set_null(handle_key(MPI_INFO_NULL));
  handles[static_cast<int>(K::Errhandler)].set_null(handle_key(MPI_ERRHANDLER_NULL));
  handles[static_cast<int>(K::File)].set_null(handle_key(MPI_FILE_NULL));
  handles[static_cast<int>(K::Win)].set_null(handle_key(MPI_WIN_NULL));
  handles[static_cast<int>(K::Request)].set_null(handle_key(MPI_REQUEST_NULL));
  handles[static_cast<int>(K::Message)].set_null(handle_key(MPI_MESSAGE_NULL));
#ifdef MPI_SESSION_NULL
  handles[static_cast<int>(K::Session)].set_null(handle_key(MPI_SESSION_NULL));
#endif
  handles[static_cast<int>(K::Keyval)].set_null(
      static_cast<uint64_t>(static_cast<uint32_t>(MPI_KEYVAL_INVALID)));
  handles[static_cast<int>(K::Keyval)].keep_after_free();
  // POSIX descriptors and streams (posix_io.cpp): -1 and NULL are the nulls,
  // the standard three and AT_FDCWD predefined.
  handles[static_cast<int>(K::Fd)].set_null(handle_key(-1));
  handles[static_cast<int>(K::Stream)].set_null(handle_key(static_cast<FILE *>(nullptr)));
  add(*this, K::Fd, "STDIN_FILENO", STDIN_FILENO);
  add(*this, K::Fd, "STDOUT_FILENO", STDOUT_FILENO);
  add(*this, K::Fd, "STDERR_FILENO", STDERR_FILENO);
  add(*this, K::Fd, "AT_FDCWD", AT_FDCWD);
  add(*this, K::Stream, "stdin", stdin);
  add(*this, K::Stream, "stdout", stdout);
  add(*this, K::Stream, "stderr", stderr);

#define PILGRIM_PREDEF(kind, name) add(*this, K::kind, #name, name)
  // Communicators, groups, infos, messages, error handlers.
  PILGRIM_PREDEF(Comm, MPI_COMM_WORLD);
  PILGRIM_PREDEF(Comm, MPI_COMM_SELF);
  PILGRIM_PREDEF(Group, MPI_GROUP_EMPTY);
#ifdef MPI_INFO_ENV
  PILGRIM_PREDEF(Info, MPI_INFO_ENV);
#endif
#ifdef MPI_MESSAGE_NO_PROC
  PILGRIM_PREDEF(Message, MPI_MESSAGE_NO_PROC);
#endif
  PILGRIM_PREDEF(Errhandler, MPI_ERRORS_ARE_FATAL);
  PILGRIM_PREDEF(Errhandler, MPI_ERRORS_RETURN);
#ifdef MPI_ERRORS_ABORT
  PILGRIM_PREDEF(Errhandler, MPI_ERRORS_ABORT);
#endif
  // Reduction operations.
  PILGRIM_PREDEF(Op, MPI_MAX);
  PILGRIM_PREDEF(Op, MPI_MIN);
  PILGRIM_PREDEF(Op, MPI_SUM);
  PILGRIM_PREDEF(Op, MPI_PROD);
  PILGRIM_PREDEF(Op, MPI_LAND);
  PILGRIM_PREDEF(Op, MPI_BAND);
  PILGRIM_PREDEF(Op, MPI_LOR);
  PILGRIM_PREDEF(Op, MPI_BOR);
  PILGRIM_PREDEF(Op, MPI_LXOR);
  PILGRIM_PREDEF(Op, MPI_BXOR);
  PILGRIM_PREDEF(Op, MPI_MAXLOC);
  PILGRIM_PREDEF(Op, MPI_MINLOC);
  PILGRIM_PREDEF(Op, MPI_REPLACE);
#ifdef MPI_NO_OP
  PILGRIM_PREDEF(Op, MPI_NO_OP);
#endif
#undef PILGRIM_PREDEF

  // Datatypes: every name of the format's table that this mpi.h defines.
#define PILGRIM_TYPE(name) add(*this, K::Datatype, #name, name)
#include "predefined_datatypes.inc"
#undef PILGRIM_TYPE

  // Attribute keyvals are plain ints. All of these are in MPI-3, and in Open
  // MPI they are enumerators, not macros: no #ifdef may guard them.
#define PILGRIM_KEYVAL(name) add(*this, K::Keyval, #name, static_cast<int>(name))
  PILGRIM_KEYVAL(MPI_TAG_UB);
  PILGRIM_KEYVAL(MPI_HOST);
  PILGRIM_KEYVAL(MPI_IO);
  PILGRIM_KEYVAL(MPI_WTIME_IS_GLOBAL);
  PILGRIM_KEYVAL(MPI_UNIVERSE_SIZE);
  PILGRIM_KEYVAL(MPI_LASTUSEDCODE);
  PILGRIM_KEYVAL(MPI_APPNUM);
  PILGRIM_KEYVAL(MPI_WIN_BASE);
  PILGRIM_KEYVAL(MPI_WIN_SIZE);
  PILGRIM_KEYVAL(MPI_WIN_DISP_UNIT);
  PILGRIM_KEYVAL(MPI_WIN_CREATE_FLAVOR);
  PILGRIM_KEYVAL(MPI_WIN_MODEL);
#undef PILGRIM_KEYVAL

  // Predefined callbacks (some libraries define the NULL ones as 0), with the
  // callback type each belongs to.
#define PILGRIM_CALLBACK(name, type) add_callback(*this, #name, name, #type)
  PILGRIM_CALLBACK(MPI_COMM_NULL_COPY_FN, MPI_Comm_copy_attr_function);
  PILGRIM_CALLBACK(MPI_COMM_NULL_DELETE_FN, MPI_Comm_delete_attr_function);
  PILGRIM_CALLBACK(MPI_COMM_DUP_FN, MPI_Comm_copy_attr_function);
  PILGRIM_CALLBACK(MPI_TYPE_NULL_COPY_FN, MPI_Type_copy_attr_function);
  PILGRIM_CALLBACK(MPI_TYPE_NULL_DELETE_FN, MPI_Type_delete_attr_function);
  PILGRIM_CALLBACK(MPI_TYPE_DUP_FN, MPI_Type_copy_attr_function);
  PILGRIM_CALLBACK(MPI_WIN_NULL_COPY_FN, MPI_Win_copy_attr_function);
  PILGRIM_CALLBACK(MPI_WIN_NULL_DELETE_FN, MPI_Win_delete_attr_function);
  PILGRIM_CALLBACK(MPI_WIN_DUP_FN, MPI_Win_copy_attr_function);
  // The deprecated MPI-1 names, for MPI_Keyval_create (MPICH defines the
  // NULL ones as 0: a NULL callback, recorded as such).
#ifdef MPI_NULL_COPY_FN
  PILGRIM_CALLBACK(MPI_NULL_COPY_FN, MPI_Copy_function);
#endif
#ifdef MPI_NULL_DELETE_FN
  PILGRIM_CALLBACK(MPI_NULL_DELETE_FN, MPI_Delete_function);
#endif
#ifdef MPI_DUP_FN
  PILGRIM_CALLBACK(MPI_DUP_FN, MPI_Copy_function);
#endif
#ifdef MPI_CONVERSION_FN_NULL
  PILGRIM_CALLBACK(MPI_CONVERSION_FN_NULL, MPI_Datarep_conversion_function);
#endif
#undef PILGRIM_CALLBACK
  // Their Fortran forms, recorded under the same names.
#define PILGRIM_FORTRAN_CALLBACK(name, fortran, type) add_callback(*this, #name, fortran, #type)
  PILGRIM_FORTRAN_CALLBACK(MPI_COMM_NULL_COPY_FN, mpi_comm_null_copy_fn_,
                           MPI_Comm_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_COMM_NULL_DELETE_FN, mpi_comm_null_delete_fn_,
                           MPI_Comm_delete_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_COMM_DUP_FN, mpi_comm_dup_fn_, MPI_Comm_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_TYPE_NULL_COPY_FN, mpi_type_null_copy_fn_,
                           MPI_Type_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_TYPE_NULL_DELETE_FN, mpi_type_null_delete_fn_,
                           MPI_Type_delete_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_TYPE_DUP_FN, mpi_type_dup_fn_, MPI_Type_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_WIN_NULL_COPY_FN, mpi_win_null_copy_fn_, MPI_Win_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_WIN_NULL_DELETE_FN, mpi_win_null_delete_fn_,
                           MPI_Win_delete_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_WIN_DUP_FN, mpi_win_dup_fn_, MPI_Win_copy_attr_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_NULL_COPY_FN, mpi_null_copy_fn_, MPI_Copy_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_NULL_DELETE_FN, mpi_null_delete_fn_, MPI_Delete_function);
  PILGRIM_FORTRAN_CALLBACK(MPI_DUP_FN, mpi_dup_fn_, MPI_Copy_function);
#undef PILGRIM_FORTRAN_CALLBACK
}

} // namespace pilgrim::rt
