#include "pilgrim/predefined_handles.h"

#include <cstring>

namespace pilgrim {

// APPEND ONLY. The index of a name is written to trace files.
const char *const kPredefinedDatatypeNames[] = {
    "MPI_CHAR",                    // 0
    "MPI_SIGNED_CHAR",             // 1
    "MPI_UNSIGNED_CHAR",           // 2
    "MPI_BYTE",                    // 3
    "MPI_SHORT",                   // 4
    "MPI_UNSIGNED_SHORT",          // 5
    "MPI_INT",                     // 6
    "MPI_UNSIGNED",                // 7
    "MPI_LONG",                    // 8
    "MPI_UNSIGNED_LONG",           // 9
    "MPI_LONG_LONG_INT",           // 10
    "MPI_LONG_LONG",               // 11
    "MPI_UNSIGNED_LONG_LONG",      // 12
    "MPI_FLOAT",                   // 13
    "MPI_DOUBLE",                  // 14
    "MPI_LONG_DOUBLE",             // 15
    "MPI_WCHAR",                   // 16
    "MPI_C_BOOL",                  // 17
    "MPI_INT8_T",                  // 18
    "MPI_INT16_T",                 // 19
    "MPI_INT32_T",                 // 20
    "MPI_INT64_T",                 // 21
    "MPI_UINT8_T",                 // 22
    "MPI_UINT16_T",                // 23
    "MPI_UINT32_T",                // 24
    "MPI_UINT64_T",                // 25
    "MPI_AINT",                    // 26
    "MPI_COUNT",                   // 27
    "MPI_OFFSET",                  // 28
    "MPI_C_COMPLEX",               // 29
    "MPI_C_FLOAT_COMPLEX",         // 30
    "MPI_C_DOUBLE_COMPLEX",        // 31
    "MPI_C_LONG_DOUBLE_COMPLEX",   // 32
    "MPI_FLOAT_INT",               // 33
    "MPI_DOUBLE_INT",              // 34
    "MPI_LONG_INT",                // 35
    "MPI_2INT",                    // 36
    "MPI_SHORT_INT",               // 37
    "MPI_LONG_DOUBLE_INT",         // 38
    "MPI_PACKED",                  // 39
    "MPI_LB",                      // 40
    "MPI_UB",                      // 41
    "MPI_CHARACTER",               // 42
    "MPI_LOGICAL",                 // 43
    "MPI_INTEGER",                 // 44
    "MPI_REAL",                    // 45
    "MPI_DOUBLE_PRECISION",        // 46
    "MPI_COMPLEX",                 // 47
    "MPI_DOUBLE_COMPLEX",          // 48
    "MPI_2REAL",                   // 49
    "MPI_2DOUBLE_PRECISION",       // 50
    "MPI_2INTEGER",                // 51
    "MPI_INTEGER1",                // 52
    "MPI_INTEGER2",                // 53
    "MPI_INTEGER4",                // 54
    "MPI_INTEGER8",                // 55
    "MPI_INTEGER16",               // 56
    "MPI_REAL2",                   // 57
    "MPI_REAL4",                   // 58
    "MPI_REAL8",                   // 59
    "MPI_REAL16",                  // 60
    "MPI_COMPLEX8",                // 61
    "MPI_COMPLEX16",               // 62
    "MPI_COMPLEX32",               // 63
    "MPI_LOGICAL1",                // 64
    "MPI_LOGICAL2",                // 65
    "MPI_LOGICAL4",                // 66
    "MPI_LOGICAL8",                // 67
    "MPI_CXX_BOOL",                // 68
    "MPI_CXX_FLOAT_COMPLEX",       // 69
    "MPI_CXX_DOUBLE_COMPLEX",      // 70
    "MPI_CXX_LONG_DOUBLE_COMPLEX", // 71
    "MPI_2COMPLEX",                // 72
    "MPI_2DOUBLE_COMPLEX",         // 73
};
const size_t kPredefinedDatatypeCount =
    sizeof kPredefinedDatatypeNames / sizeof *kPredefinedDatatypeNames;

const char *const kPredefinedCommNames[] = {
    "MPI_COMM_WORLD", // 0
    "MPI_COMM_SELF",  // 1
};
const size_t kPredefinedCommCount = sizeof kPredefinedCommNames / sizeof *kPredefinedCommNames;

const char *const kPredefinedGroupNames[] = {
    "MPI_GROUP_EMPTY", // 0
};
const size_t kPredefinedGroupCount = sizeof kPredefinedGroupNames / sizeof *kPredefinedGroupNames;

const char *const kPredefinedOpNames[] = {
    "MPI_MAX",     // 0
    "MPI_MIN",     // 1
    "MPI_SUM",     // 2
    "MPI_PROD",    // 3
    "MPI_LAND",    // 4
    "MPI_BAND",    // 5
    "MPI_LOR",     // 6
    "MPI_BOR",     // 7
    "MPI_LXOR",    // 8
    "MPI_BXOR",    // 9
    "MPI_MAXLOC",  // 10
    "MPI_MINLOC",  // 11
    "MPI_REPLACE", // 12
    "MPI_NO_OP",   // 13
};
const size_t kPredefinedOpCount = sizeof kPredefinedOpNames / sizeof *kPredefinedOpNames;

const char *const kPredefinedErrhandlerNames[] = {
    "MPI_ERRORS_ARE_FATAL", // 0
    "MPI_ERRORS_RETURN",    // 1
    "MPI_ERRORS_ABORT",     // 2
};
const size_t kPredefinedErrhandlerCount =
    sizeof kPredefinedErrhandlerNames / sizeof *kPredefinedErrhandlerNames;

const char *const kPredefinedInfoNames[] = {
    "MPI_INFO_ENV", // 0
};
const size_t kPredefinedInfoCount = sizeof kPredefinedInfoNames / sizeof *kPredefinedInfoNames;

const char *const kPredefinedMessageNames[] = {
    "MPI_MESSAGE_NO_PROC", // 0
};
const size_t kPredefinedMessageCount =
    sizeof kPredefinedMessageNames / sizeof *kPredefinedMessageNames;

const char *const kPredefinedKeyvalNames[] = {
    "MPI_TAG_UB",            // 0
    "MPI_HOST",              // 1
    "MPI_IO",                // 2
    "MPI_WTIME_IS_GLOBAL",   // 3
    "MPI_UNIVERSE_SIZE",     // 4
    "MPI_LASTUSEDCODE",      // 5
    "MPI_APPNUM",            // 6
    "MPI_WIN_BASE",          // 7
    "MPI_WIN_SIZE",          // 8
    "MPI_WIN_DISP_UNIT",     // 9
    "MPI_WIN_CREATE_FLAVOR", // 10
    "MPI_WIN_MODEL",         // 11
};
const size_t kPredefinedKeyvalCount =
    sizeof kPredefinedKeyvalNames / sizeof *kPredefinedKeyvalNames;

// POSIX file descriptors and stdio streams (format 7): the three standard ones.
const char *const kPredefinedFdNames[] = {
    "STDIN_FILENO",  // 0
    "STDOUT_FILENO", // 1
    "STDERR_FILENO", // 2
    "AT_FDCWD",      // 3: openat's dirfd for the current directory
};
const size_t kPredefinedFdCount = sizeof kPredefinedFdNames / sizeof *kPredefinedFdNames;

const char *const kPredefinedStreamNames[] = {
    "stdin",  // 0
    "stdout", // 1
    "stderr", // 2
};
const size_t kPredefinedStreamCount =
    sizeof kPredefinedStreamNames / sizeof *kPredefinedStreamNames;

const char *const kPredefinedCallbackNames[] = {
    "MPI_COMM_NULL_COPY_FN",   // 0
    "MPI_COMM_NULL_DELETE_FN", // 1
    "MPI_COMM_DUP_FN",         // 2
    "MPI_TYPE_NULL_COPY_FN",   // 3
    "MPI_TYPE_NULL_DELETE_FN", // 4
    "MPI_TYPE_DUP_FN",         // 5
    "MPI_WIN_NULL_COPY_FN",    // 6
    "MPI_WIN_NULL_DELETE_FN",  // 7
    "MPI_WIN_DUP_FN",          // 8
    "MPI_NULL_COPY_FN",        // 9
    "MPI_NULL_DELETE_FN",      // 10
    "MPI_DUP_FN",              // 11
    "MPI_CONVERSION_FN_NULL",  // 12
};
const size_t kPredefinedCallbackCount =
    sizeof kPredefinedCallbackNames / sizeof *kPredefinedCallbackNames;

NameTable predefined_handle_names(HandleKind kind) {
  switch (kind) {
  case HandleKind::Comm:
    return {kPredefinedCommNames, kPredefinedCommCount};
  case HandleKind::Group:
    return {kPredefinedGroupNames, kPredefinedGroupCount};
  case HandleKind::Datatype:
    return {kPredefinedDatatypeNames, kPredefinedDatatypeCount};
  case HandleKind::Op:
    return {kPredefinedOpNames, kPredefinedOpCount};
  case HandleKind::Info:
    return {kPredefinedInfoNames, kPredefinedInfoCount};
  case HandleKind::Errhandler:
    return {kPredefinedErrhandlerNames, kPredefinedErrhandlerCount};
  case HandleKind::Message:
    return {kPredefinedMessageNames, kPredefinedMessageCount};
  case HandleKind::Keyval:
    return {kPredefinedKeyvalNames, kPredefinedKeyvalCount};
  case HandleKind::Fd:
    return {kPredefinedFdNames, kPredefinedFdCount};
  case HandleKind::Stream:
    return {kPredefinedStreamNames, kPredefinedStreamCount};
  default:
    return {nullptr, 0};
  }
}

const char *null_handle_name(HandleKind kind) {
  switch (kind) {
  case HandleKind::Comm:
    return "MPI_COMM_NULL";
  case HandleKind::Group:
    return "MPI_GROUP_NULL";
  case HandleKind::Datatype:
    return "MPI_DATATYPE_NULL";
  case HandleKind::Op:
    return "MPI_OP_NULL";
  case HandleKind::Info:
    return "MPI_INFO_NULL";
  case HandleKind::Errhandler:
    return "MPI_ERRHANDLER_NULL";
  case HandleKind::File:
    return "MPI_FILE_NULL";
  case HandleKind::Win:
    return "MPI_WIN_NULL";
  case HandleKind::Request:
    return "MPI_REQUEST_NULL";
  case HandleKind::Message:
    return "MPI_MESSAGE_NULL";
  case HandleKind::Session:
    return "MPI_SESSION_NULL";
  case HandleKind::Keyval:
    return "MPI_KEYVAL_INVALID";
  case HandleKind::Fd:
    return "-1";
  default:
    return "NULL";
  }
}

const char *handle_id_prefix(HandleKind kind) {
  switch (kind) {
  case HandleKind::Comm:
    return "comm";
  case HandleKind::Group:
    return "group";
  case HandleKind::Datatype:
    return "type";
  case HandleKind::Op:
    return "op";
  case HandleKind::Info:
    return "info";
  case HandleKind::Errhandler:
    return "errh";
  case HandleKind::File:
    return "file";
  case HandleKind::Win:
    return "win";
  case HandleKind::Request:
    return "req";
  case HandleKind::Message:
    return "msg";
  case HandleKind::Session:
    return "session";
  case HandleKind::Keyval:
    return "keyval";
  case HandleKind::Fd:
    return "fd";
  case HandleKind::Stream:
    return "stream";
  default:
    return "handle";
  }
}

NameTable predefined_callback_names() {
  return {kPredefinedCallbackNames, kPredefinedCallbackCount};
}

namespace {
int find_in(NameTable t, const char *name) {
  if (!name)
    return -1;
  for (size_t k = 0; k < t.count; ++k)
    if (std::strcmp(t.names[k], name) == 0)
      return static_cast<int>(k);
  return -1;
}
} // namespace

int find_predefined_handle(HandleKind kind, const char *name) {
  return find_in(predefined_handle_names(kind), name);
}

int find_predefined_callback(const char *name) {
  return find_in(predefined_callback_names(), name);
}

} // namespace pilgrim
