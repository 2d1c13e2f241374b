// The function table: for each MPI function Pilgrim knows, its stable id, its
// name and, per parameter, the C type, role, direction and array length.
//
// The generator emits one static table of these rows into the build tree; the
// trace file embeds the rows of the functions a trace uses, so a reader needs
// no matching build. The enums below are part of the trace format: their
// numeric values are written to disk and must never be renumbered (append
// only). See docs/ANNOTATIONS.md for their meaning and docs/FORMAT.md for
// their encoding.
#pragma once

#include <cstdint>

namespace pilgrim {

// What a parameter means. Each role has exactly one encoder in the runtime
// and one decoder in the format library.
enum class Role : uint8_t {
  Value = 0,        // an integer kept by value (counts, colors, flags, sizes...)
  Rank = 1,         // a rank in a communicator or group (see ParamInfo::ref)
  Tag = 2,          // a message tag
  Handle = 3,       // an MPI handle of kind ParamInfo::handle_kind
  Buffer = 4,       // a message/data buffer: symbolic buffer id
  Status = 5,       // an MPI_Status
  String = 6,       // a NUL-terminated C string
  Callback = 7,     // a function pointer (user or predefined callback)
  Offset = 8,       // a file offset (MPI_Offset) kept by value
  Pointer = 9,      // an opaque address (attribute value, extra_state, baseptr)
  StringArray = 10, // char*[] (argv); length may be "null terminated"
  ArgvArray = 11,   // char**[] (array_of_argv of MPI_Comm_spawn_multiple)
  Opaque = 12,      // recorded only as null / non-null (MPI_Init's argc/argv)
  Double = 13,      // a double kept by value
  Varargs = 14,     // the "..." of MPI_Pcontrol: not recorded
  Address = 15,     // an MPI_Aint that may hold an absolute address: a memory id and an
                    // offset, or the plain value (format version 4; see ParamInfo::ref)
};

enum class Direction : uint8_t { In = 0, Out = 1, InOut = 2 };

enum class HandleKind : uint8_t {
  None = 0,
  Comm = 1,
  Group = 2,
  Datatype = 3,
  Op = 4,
  Info = 5,
  Errhandler = 6,
  File = 7,
  Win = 8,
  Request = 9,
  Message = 10,
  Session = 11,
  Keyval = 12, // attribute keyvals are ints but behave like handles
  Fd = 13,     // POSIX file descriptors (records of kind posix; format 7)
  Stream = 14, // stdio streams, FILE * (records of kind posix; format 7)
};
constexpr int kHandleKindCount = 15;

// What the call does to the handle: Use leaves it, Create makes a new one
// (the parameter is an out pointer), Free releases it (inout, set to NULL by
// MPI). Requests completed by Wait/Test are freed when MPI sets them to
// MPI_REQUEST_NULL, whatever the action says (persistent requests stay).
enum class HandleAction : uint8_t { None = 0, Use = 1, Create = 2, Free = 3 };

// The C-level base type of a parameter after stripping pointers/arrays.
enum class CType : uint8_t {
  Void = 0,
  Int = 1,
  Aint = 2,
  Count = 3,
  Offset = 4,
  Fint = 5,
  Char = 6,
  Double = 7,
  Handle = 8, // MPI_Comm, MPI_Datatype, ... (see HandleKind)
  Status = 9,
  Function = 10, // a function pointer type
  Other = 11,    // anything else (documented in the coverage report)
  Long = 12,     // long / long long / unsigned variants kept as int64
};

// Parameter flags (bit set).
enum ParamFlags : uint16_t {
  kFlagPointer = 1u << 0,        // passed by pointer (scalar out/inout or array)
  kFlagArray = 1u << 1,          // an array of `length` elements
  kFlagConst = 1u << 2,          // const-qualified pointee
  kFlagRootOnly = 1u << 3,       // significant only at the root (see ref2)
  kFlagNullTerminated = 1u << 4, // array ends at a NULL element (argv)
  kFlagRelative = 1u << 5,       // Rank: relative encoding allowed (default on)
  kFlagMatrix3 = 1u << 6,        // int ranges[][3]: length counts rows of 3
  kFlagLengthAfter = 1u << 7,    // length uses an out value: evaluate after call
  kFlagWhenFlag = 1u << 8,       // out: MPI writes it only when the out flag `ref` is true
  kFlagRankStride = 1u << 9,     // Offset (version 7): stride x world rank + base (FORMAT §8.3)
};

// Length expressions are kept as RPN programs over the call's parameters.
enum class LenOp : uint8_t {
  Const = 0, // push arg
  Param = 1, // push value of parameter #arg (dereferenced if a pointer)
  Elem = 2,  // pop i; push element i of array parameter #arg
  Add = 3,
  Sub = 4,
  Mul = 5,
  Peers = 6,      // push group size of comm #arg, remote group for intercomms
  CommSize = 7,   // push local group size of comm #arg
  InDegree = 8,   // push topology in-degree of comm #arg
  OutDegree = 9,  // push topology out-degree of comm #arg
  Sum = 10,       // pop n; push sum of first n elements of array param #arg
  GroupSize = 11, // push size of group #arg
  NullTerm = 12,  // push number of elements before the NULL terminator of #arg
  CartDim = 13,   // push number of dimensions of cartesian comm #arg
};

struct LenInstr {
  LenOp op;
  int32_t arg;
};

struct ParamInfo {
  const char *name;   // parameter name as in the annotation sidecar
  const char *c_type; // the exact C type text from mpi.h
  CType base;         // base type after stripping pointers/arrays
  Role role;
  Direction dir;
  HandleKind handle_kind; // for Role::Handle
  HandleAction action;    // for Role::Handle
  uint16_t flags;         // ParamFlags
  int8_t ref;             // Rank: comm/group param; Buffer: count (or bytes) param;
                          // Address: the window whose target memory it points into; -1 none
                          // kFlagWhenFlag: the out flag param (Pointer too, then
                          // not a byte size); -1 none
  int8_t ref2;            // Buffer: datatype param (-1: `ref` counts bytes); Address: the
                          // target rank param; -1 none
  int8_t ref3;            // kFlagRootOnly: the root param; -1 none
  uint8_t len_size;       // number of instructions in `len`
  const LenInstr *len;    // RPN length program (array params), else nullptr
  const char *len_text;   // the expression as written in the sidecar
};

struct FunctionInfo {
  uint16_t id;      // stable function id (see docs/ANNOTATIONS.md)
  const char *name; // "MPI_Send"
  uint8_t nparams;
  const ParamInfo *params;
};

} // namespace pilgrim
