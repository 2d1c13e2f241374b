// A small hand-written function table covering every parameter role, a
// signature builder and a sample multi-rank trace. Shared by the format
// unit tests (test/unit/format_*_test.cpp), the fuzz target and its seed
// generator. Header-only (C++17 inline variables).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "pilgrim/crc32c.h"
#include "pilgrim/function_table.h"
#include "pilgrim/rank_codec.h"
#include "pilgrim/signature_encoding.h"
#include "pilgrim/trace_model.h"
#include "pilgrim/trace_writer.h"

namespace pilgrim::sample {

// Parameter row shorthands.
constexpr uint16_t P = kFlagPointer, A = kFlagArray | kFlagPointer, C = kFlagConst;

inline ParamInfo param(const char *name, const char *c_type, CType base, Role role,
                       Direction dir = Direction::In, uint16_t flags = 0,
                       HandleKind kind = HandleKind::None, HandleAction action = HandleAction::None,
                       int8_t ref = -1, int8_t ref2 = -1, int8_t ref3 = -1, uint8_t len_size = 0,
                       const LenInstr *len = nullptr, const char *len_text = nullptr) {
  return ParamInfo{name,  c_type, base, role, dir,      kind, action,
                   flags, ref,    ref2, ref3, len_size, len,  len_text};
}
inline ParamInfo handle(const char *name, const char *c_type, HandleKind kind,
                        HandleAction action = HandleAction::Use, Direction dir = Direction::In,
                        uint16_t flags = 0) {
  return param(name, c_type, CType::Handle, Role::Handle, dir, flags, kind, action);
}
inline ParamInfo comm_param(const char *name = "comm") {
  return handle(name, "MPI_Comm", HandleKind::Comm);
}
inline ParamInfo type_param(const char *name = "datatype") {
  return handle(name, "MPI_Datatype", HandleKind::Datatype);
}
inline ParamInfo value(const char *name, const char *c_type = "int") {
  return param(name, c_type, CType::Int, Role::Value);
}

// Length programs.
inline const LenInstr kLenParam0[] = {{LenOp::Param, 0}};
inline const LenInstr kLenParam1[] = {{LenOp::Param, 1}};
inline const LenInstr kLenParam2[] = {{LenOp::Param, 2}};
inline const LenInstr kLenPeers8[] = {{LenOp::Peers, 8}};
inline const LenInstr kLenNullTerm1[] = {{LenOp::NullTerm, 1}};
inline const LenInstr kLenSum3[] = {{LenOp::Param, 0}, {LenOp::Sum, 3}};

// --- rows ---------------------------------------------------------------------

inline const ParamInfo kInitParams[] = {
    param("argc", "int *", CType::Int, Role::Opaque, Direction::In, P),
    param("argv", "char ***", CType::Char, Role::Opaque, Direction::In, P),
};
inline const ParamInfo kCommRankParams[] = {
    comm_param(),
    param("rank", "int *", CType::Int, Role::Value, Direction::Out, P),
};
inline const ParamInfo kSendParams[] = {
    param("buf", "const void *", CType::Void, Role::Buffer, Direction::In, P | C, HandleKind::None,
          HandleAction::None, 1, 2),
    value("count"),
    type_param(),
    param("dest", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative, HandleKind::None,
          HandleAction::None, 5),
    param("tag", "int", CType::Int, Role::Tag),
    comm_param(),
};
inline const ParamInfo kRecvParams[] = {
    param("buf", "void *", CType::Void, Role::Buffer, Direction::Out, P, HandleKind::None,
          HandleAction::None, 1, 2),
    value("count"),
    type_param(),
    param("source", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative, HandleKind::None,
          HandleAction::None, 5),
    param("tag", "int", CType::Int, Role::Tag),
    comm_param(),
    param("status", "MPI_Status *", CType::Status, Role::Status, Direction::Out, P),
};
inline const ParamInfo kIsendParams[] = {
    kSendParams[0],
    kSendParams[1],
    kSendParams[2],
    kSendParams[3],
    kSendParams[4],
    kSendParams[5],
    handle("request", "MPI_Request *", HandleKind::Request, HandleAction::Create, Direction::Out,
           P),
};
inline const ParamInfo kIrecvParams[] = {
    kRecvParams[0],
    kRecvParams[1],
    kRecvParams[2],
    kRecvParams[3],
    kRecvParams[4],
    kRecvParams[5],
    handle("request", "MPI_Request *", HandleKind::Request, HandleAction::Create, Direction::Out,
           P),
};
inline const ParamInfo kWaitallParams[] = {
    value("count"),
    param("array_of_requests", "MPI_Request[]", CType::Handle, Role::Handle, Direction::InOut, A,
          HandleKind::Request, HandleAction::Free, -1, -1, -1, 1, kLenParam0, "count"),
    param("array_of_statuses", "MPI_Status[]", CType::Status, Role::Status, Direction::Out, A,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
};
inline const ParamInfo kAllreduceParams[] = {
    param("sendbuf", "const void *", CType::Void, Role::Buffer, Direction::In, P | C,
          HandleKind::None, HandleAction::None, 2, 3),
    param("recvbuf", "void *", CType::Void, Role::Buffer, Direction::Out, P, HandleKind::None,
          HandleAction::None, 2, 3),
    value("count"),
    type_param(),
    handle("op", "MPI_Op", HandleKind::Op),
    comm_param(),
};
inline const ParamInfo kGathervParams[] = {
    param("sendbuf", "const void *", CType::Void, Role::Buffer, Direction::In, P | C,
          HandleKind::None, HandleAction::None, 1, 2),
    value("sendcount"),
    type_param("sendtype"),
    param("recvbuf", "void *", CType::Void, Role::Buffer, Direction::Out, P | kFlagRootOnly,
          HandleKind::None, HandleAction::None, 4, 6, 7),
    param("recvcounts", "const int[]", CType::Int, Role::Value, Direction::In,
          A | C | kFlagRootOnly, HandleKind::None, HandleAction::None, -1, -1, 7, 1, kLenPeers8,
          "peers(comm)"),
    param("displs", "const int[]", CType::Int, Role::Value, Direction::In, A | C | kFlagRootOnly,
          HandleKind::None, HandleAction::None, -1, -1, 7, 1, kLenPeers8, "peers(comm)"),
    type_param("recvtype"),
    param("root", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative, HandleKind::None,
          HandleAction::None, 8),
    comm_param(),
};
inline const ParamInfo kCommSplitParams[] = {
    comm_param(),
    value("color"),
    value("key"),
    handle("newcomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create, Direction::Out, P),
};
inline const ParamInfo kGroupRangeInclParams[] = {
    handle("group", "MPI_Group", HandleKind::Group),
    value("n"),
    param("ranges", "int[][3]", CType::Int, Role::Rank, Direction::In, A | kFlagMatrix3,
          HandleKind::None, HandleAction::None, 0, -1, -1, 1, kLenParam1, "n"),
    handle("newgroup", "MPI_Group *", HandleKind::Group, HandleAction::Create, Direction::Out, P),
};
inline const ParamInfo kCommSpawnParams[] = {
    param("command", "const char *", CType::Char, Role::String, Direction::In, P | C),
    param("argv", "char *[]", CType::Char, Role::StringArray, Direction::In,
          A | kFlagNullTerminated, HandleKind::None, HandleAction::None, -1, -1, -1, 1,
          kLenNullTerm1, "nullterm(argv)"),
    value("maxprocs"),
    handle("info", "MPI_Info", HandleKind::Info),
    param("root", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative, HandleKind::None,
          HandleAction::None, 5),
    comm_param(),
    handle("intercomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create, Direction::Out, P),
    param("array_of_errcodes", "int[]", CType::Int, Role::Value, Direction::Out, A,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam2, "maxprocs"),
};
inline const ParamInfo kCommSpawnMultipleParams[] = {
    value("count"),
    param("array_of_commands", "char *[]", CType::Char, Role::StringArray, Direction::In, A,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
    param("array_of_argv", "char **[]", CType::Char, Role::ArgvArray, Direction::In, A,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
    param("array_of_maxprocs", "const int[]", CType::Int, Role::Value, Direction::In, A | C,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
    param("array_of_info", "const MPI_Info[]", CType::Handle, Role::Handle, Direction::In, A | C,
          HandleKind::Info, HandleAction::Use, -1, -1, -1, 1, kLenParam0, "count"),
    param("root", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative, HandleKind::None,
          HandleAction::None, 5),
    comm_param(),
    handle("intercomm", "MPI_Comm *", HandleKind::Comm, HandleAction::Create, Direction::Out, P),
    param("array_of_errcodes", "int[]", CType::Int, Role::Value, Direction::Out, A,
          HandleKind::None, HandleAction::None, -1, -1, -1, 2, kLenSum3,
          "sum(array_of_maxprocs, count)"),
};
inline const ParamInfo kCreateKeyvalParams[] = {
    param("comm_copy_attr_fn", "MPI_Comm_copy_attr_function *", CType::Function, Role::Callback),
    param("comm_delete_attr_fn", "MPI_Comm_delete_attr_function *", CType::Function,
          Role::Callback),
    handle("comm_keyval", "int *", HandleKind::Keyval, HandleAction::Create, Direction::Out, P),
    param("extra_state", "void *", CType::Void, Role::Pointer, Direction::In, P),
};
inline const ParamInfo kSetAttrParams[] = {
    comm_param(),
    handle("comm_keyval", "int", HandleKind::Keyval),
    param("attribute_val", "void *", CType::Void, Role::Pointer, Direction::In, P),
};
inline const ParamInfo kPcontrolParams[] = {
    value("level"),
    param("", "...", CType::Other, Role::Varargs),
};
inline const ParamInfo kFileOpenParams[] = {
    comm_param(),
    param("filename", "const char *", CType::Char, Role::String, Direction::In, P | C),
    value("amode"),
    handle("info", "MPI_Info", HandleKind::Info),
    handle("fh", "MPI_File *", HandleKind::File, HandleAction::Create, Direction::Out, P),
};
inline const ParamInfo kFileWriteAtParams[] = {
    handle("fh", "MPI_File", HandleKind::File),
    param("offset", "MPI_Offset", CType::Offset, Role::Offset),
    param("buf", "const void *", CType::Void, Role::Buffer, Direction::In, P | C, HandleKind::None,
          HandleAction::None, 3, 4),
    value("count"),
    type_param(),
    param("status", "MPI_Status *", CType::Status, Role::Status, Direction::Out, P),
};
inline const ParamInfo kWaitParams[] = {
    handle("request", "MPI_Request *", HandleKind::Request, HandleAction::Free, Direction::InOut,
           P),
    param("status", "MPI_Status *", CType::Status, Role::Status, Direction::Out, P),
};
inline const ParamInfo kTypeContiguousParams[] = {
    value("count"),
    handle("oldtype", "MPI_Datatype", HandleKind::Datatype),
    handle("newtype", "MPI_Datatype *", HandleKind::Datatype, HandleAction::Create, Direction::Out,
           P),
};
inline const ParamInfo kGetCountParams[] = {
    param("status", "const MPI_Status *", CType::Status, Role::Status, Direction::In, P | C),
    type_param(),
    param("count", "int *", CType::Int, Role::Value, Direction::Out, P),
};
inline const ParamInfo kFakeDoubleParams[] = {
    param("x", "double", CType::Double, Role::Double),
    param("y", "double *", CType::Double, Role::Double, Direction::InOut, P),
    param("flag", "int *", CType::Int, Role::Value, Direction::InOut, P),
};
inline const ParamInfo kCommFreeParams[] = {
    handle("comm", "MPI_Comm *", HandleKind::Comm, HandleAction::Free, Direction::InOut, P),
};
inline const ParamInfo kWinCreateParams[] = {
    param("base", "void *", CType::Void, Role::Buffer, Direction::In, P, HandleKind::None,
          HandleAction::None, 1),
    param("size", "MPI_Aint", CType::Aint, Role::Value),
    value("disp_unit"),
    handle("info", "MPI_Info", HandleKind::Info),
    comm_param(),
    handle("win", "MPI_Win *", HandleKind::Win, HandleAction::Create, Direction::Out, P),
};
inline const ParamInfo kPutParams[] = {
    param("origin_addr", "const void *", CType::Void, Role::Buffer, Direction::In, P | C,
          HandleKind::None, HandleAction::None, 1, 2),
    value("origin_count"),
    type_param("origin_datatype"),
    param("target_rank", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative,
          HandleKind::None, HandleAction::None, 7),
    param("target_disp", "MPI_Aint", CType::Aint, Role::Value),
    value("target_count"),
    type_param("target_datatype"),
    handle("win", "MPI_Win", HandleKind::Win),
};

// Format version 4: role Address (a datatype's displacements; a target
// displacement, ref = the window, ref2 = the target rank).
inline const ParamInfo kTypeHindexedParams[] = {
    value("count"),
    param("array_of_blocklengths", "const int[]", CType::Int, Role::Value, Direction::In, A | C,
          HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
    param("array_of_displacements", "const MPI_Aint[]", CType::Aint, Role::Address, Direction::In,
          A | C, HandleKind::None, HandleAction::None, -1, -1, -1, 1, kLenParam0, "count"),
    handle("oldtype", "MPI_Datatype", HandleKind::Datatype),
    handle("newtype", "MPI_Datatype *", HandleKind::Datatype, HandleAction::Create, Direction::Out,
           P),
};
inline const ParamInfo kGetParams[] = {
    param("origin_addr", "void *", CType::Void, Role::Buffer, Direction::Out, P, HandleKind::None,
          HandleAction::None, 1, 2),
    value("origin_count"),
    type_param("origin_datatype"),
    param("target_rank", "int", CType::Int, Role::Rank, Direction::In, kFlagRelative,
          HandleKind::None, HandleAction::None, 7),
    param("target_disp", "MPI_Aint", CType::Aint, Role::Address, Direction::In, 0, HandleKind::None,
          HandleAction::None, 7, 3),
    value("target_count"),
    type_param("target_datatype"),
    handle("win", "MPI_Win", HandleKind::Win),
};

// Format version 5: the tracer's fact of a datatype's layout, after the
// MPI_Type_commit that made it (docs/FORMAT.md §8.5).
inline const ParamInfo kTypeCommitParams[] = {
    handle("datatype", "MPI_Datatype *", HandleKind::Datatype, HandleAction::Use, Direction::InOut,
           P),
};
inline const ParamInfo kDatatypeLayoutParams[] = {
    type_param(),
    param("size", "MPI_Count", CType::Count, Role::Value),
    param("lb", "const MPI_Count *", CType::Count, Role::Address, Direction::In, P | C),
    param("ub", "const MPI_Count *", CType::Count, Role::Address, Direction::In, P | C),
    param("true_lb", "const MPI_Count *", CType::Count, Role::Address, Direction::In, P | C),
    param("true_ub", "const MPI_Count *", CType::Count, Role::Address, Direction::In, P | C),
};

// MPI_File_write_at as a version-7 writer describes it: the offset has
// kFlagRankStride (stride x world rank + base, FORMAT.md §8.3).
// Version 8's markers (records 0x3D00 and 0x3D03, FORMAT.md §8.7).
inline const ParamInfo kPcontrolMarkerParams[] = {value("level")};
inline const ParamInfo kPhaseMarkerParams[] = {
    param("name", "const char *", CType::Char, Role::String, Direction::In, P | C),
};

inline const ParamInfo kRankStrideWriteAtParams[] = {
    handle("fh", "MPI_File", HandleKind::File),
    param("offset", "MPI_Offset", CType::Offset, Role::Offset, Direction::In, kFlagRankStride),
    param("buf", "const void *", CType::Void, Role::Buffer, Direction::In, P | C, HandleKind::None,
          HandleAction::None, 3, 4),
    value("count"),
    type_param(),
    param("status", "MPI_Status *", CType::Status, Role::Status, Direction::Out, P),
};

#define PILGRIM_SAMPLE_ROW(id, name, params)                                                       \
  FunctionInfo { id, name, static_cast<uint8_t>(sizeof(params) / sizeof(ParamInfo)), params }

inline const FunctionInfo kFunctions[] = {
    PILGRIM_SAMPLE_ROW(1, "MPI_Send", kSendParams),
    PILGRIM_SAMPLE_ROW(2, "MPI_Recv", kRecvParams),
    PILGRIM_SAMPLE_ROW(3, "MPI_Isend", kIsendParams),
    PILGRIM_SAMPLE_ROW(4, "MPI_Irecv", kIrecvParams),
    PILGRIM_SAMPLE_ROW(5, "MPI_Waitall", kWaitallParams),
    PILGRIM_SAMPLE_ROW(6, "MPI_Allreduce", kAllreduceParams),
    PILGRIM_SAMPLE_ROW(7, "MPI_Gatherv", kGathervParams),
    PILGRIM_SAMPLE_ROW(8, "MPI_Comm_split", kCommSplitParams),
    PILGRIM_SAMPLE_ROW(9, "MPI_Group_range_incl", kGroupRangeInclParams),
    PILGRIM_SAMPLE_ROW(10, "MPI_Comm_spawn", kCommSpawnParams),
    PILGRIM_SAMPLE_ROW(11, "MPI_Comm_spawn_multiple", kCommSpawnMultipleParams),
    PILGRIM_SAMPLE_ROW(12, "MPI_Comm_create_keyval", kCreateKeyvalParams),
    PILGRIM_SAMPLE_ROW(13, "MPI_Comm_set_attr", kSetAttrParams),
    PILGRIM_SAMPLE_ROW(14, "MPI_Pcontrol", kPcontrolParams),
    PILGRIM_SAMPLE_ROW(15, "MPI_File_open", kFileOpenParams),
    PILGRIM_SAMPLE_ROW(16, "MPI_File_write_at", kFileWriteAtParams),
    PILGRIM_SAMPLE_ROW(17, "MPI_Wait", kWaitParams),
    PILGRIM_SAMPLE_ROW(18, "MPI_Type_contiguous", kTypeContiguousParams),
    PILGRIM_SAMPLE_ROW(19, "MPI_Get_count", kGetCountParams),
    PILGRIM_SAMPLE_ROW(20, "MPI_Comm_free", kCommFreeParams),
    PILGRIM_SAMPLE_ROW(21, "MPI_Comm_rank", kCommRankParams),
    PILGRIM_SAMPLE_ROW(22, "MPI_Init", kInitParams),
    FunctionInfo{23, "MPI_Finalize", 0, nullptr},
    PILGRIM_SAMPLE_ROW(24, "MPI_Win_create", kWinCreateParams),
    PILGRIM_SAMPLE_ROW(25, "MPI_Put", kPutParams),
    PILGRIM_SAMPLE_ROW(26, "MPI_Type_create_hindexed", kTypeHindexedParams),
    PILGRIM_SAMPLE_ROW(27, "MPI_Get", kGetParams),
    PILGRIM_SAMPLE_ROW(28, "MPI_Type_commit", kTypeCommitParams),
    PILGRIM_SAMPLE_ROW(900, "PILGRIM_Fake_double", kFakeDoubleParams),
    PILGRIM_SAMPLE_ROW(0x3D00, "pilgrim_pcontrol", kPcontrolMarkerParams),
    PILGRIM_SAMPLE_ROW(0x3D03, "pilgrim_phase", kPhaseMarkerParams),
    PILGRIM_SAMPLE_ROW(0x3E00, "pilgrim_datatype_layout", kDatatypeLayoutParams),
};
#undef PILGRIM_SAMPLE_ROW

inline const FunctionInfo &function(const char *name) {
  for (const FunctionInfo &f : kFunctions)
    if (std::strcmp(f.name, name) == 0)
      return f;
  return kFunctions[0];
}

inline std::vector<const FunctionInfo *> all_functions() {
  std::vector<const FunctionInfo *> v;
  for (const FunctionInfo &f : kFunctions)
    v.push_back(&f);
  return v;
}

inline const FunctionInfo *lookup(uint16_t id) {
  for (const FunctionInfo &f : kFunctions)
    if (f.id == id)
      return &f;
  return nullptr;
}

// Builds a signature with the hot-path primitives into a fixed buffer.
class SigBuilder {
public:
  SigBuilder(uint16_t function_id, uint64_t thread_id = 0) : p_(buf_) {
    put_varint(p_, function_id);
    put_varint(p_, thread_id);
  }
  explicit SigBuilder(const char *function_name, uint64_t thread_id = 0)
      : SigBuilder(function(function_name).id, thread_id) {}
  SigBuilder &v(uint64_t x) { return put_varint(p_, x), *this; }  // raw varint (codes)
  SigBuilder &i(int64_t x) { return put_svarint(p_, x), *this; }  // Value / Offset element
  SigBuilder &arr(uint64_t n) { return v(sig::array_prefix(n)); } // array prefix
  SigBuilder &null() { return v(sig::kArrayNull); }
  SigBuilder &d(double x) { return sig::put_double(p_, x), *this; }
  SigBuilder &s(const char *x) { return sig::put_string(p_, x), *this; }
  SigBuilder &byte(uint8_t b) { return *p_++ = b, *this; }
  std::string done(int64_t rc = 0) {
    put_svarint(p_, rc);
    return std::string(reinterpret_cast<const char *>(buf_), static_cast<size_t>(p_ - buf_));
  }

private:
  uint8_t buf_[4096];
  uint8_t *p_;
};

constexpr uint64_t kWorld = sig::handle_predefined(0); // MPI_COMM_WORLD
constexpr uint64_t kInt = sig::handle_predefined(6);   // MPI_INT
constexpr uint64_t kDouble = sig::handle_predefined(14);
constexpr uint64_t kSum = sig::handle_predefined(2); // MPI_SUM

// A ring exchange: Init, Comm_rank, 10 x (Irecv from -1, Isend to +1,
// Waitall), Allreduce, Finalize.
//   R0 -> t0 t1 R1^10 t5 t6      R1 -> t2 t3 t4
inline RankTrace ring_rank(int rank, bool timing = true) {
  RankTrace rt;
  auto add = [&](std::string sig, uint64_t count) {
    CstEntry e;
    e.signature = std::move(sig);
    e.count = count;
    if (timing) {
      e.duration = TimingStats{count, 1e-6 * (rank + 1), count > 1 ? 1e-13 : 0, 0.5e-6, 2e-6};
      e.interval = TimingStats{count, 3e-6, 0, 1e-6, 5e-6};
    }
    rt.cst.push_back(std::move(e));
  };
  add(SigBuilder("MPI_Init").byte(1).byte(1).done(), 1);
  add(SigBuilder("MPI_Comm_rank").v(kWorld).arr(1).i(rank).done(), 1);
  add(SigBuilder("MPI_Irecv")
          .v(sig::buffer_id(1))
          .i(8)
          .v(kInt)
          .v(sig::rank_relative(-1))
          .v(sig::tag_value(7))
          .v(kWorld)
          .arr(1)
          .v(sig::handle_user(0))
          .done(),
      10);
  add(SigBuilder("MPI_Isend")
          .v(sig::buffer_id(0))
          .i(8)
          .v(kInt)
          .v(sig::rank_relative(1))
          .v(sig::tag_value(7))
          .v(kWorld)
          .arr(1)
          .v(sig::handle_user(1))
          .done(),
      10);
  add(SigBuilder("MPI_Waitall")
          .i(2)
          .arr(2)
          .v(sig::handle_user(0))
          .v(sig::handle_user(1)) // in: the requests
          .arr(2)
          .v(sig::kHandleNull)
          .v(sig::kHandleNull) // out: freed
          .arr(2)
          .v(sig::kStatusCountOnly)
          .i(32)
          .v(sig::kStatusEmpty)
          .done(),
      10);
  add(SigBuilder("MPI_Allreduce")
          .v(sig::buffer_id(2))
          .v(sig::buffer_id(3))
          .i(1)
          .v(kDouble)
          .v(kSum)
          .v(kWorld)
          .done(),
      1);
  add(SigBuilder("MPI_Finalize").done(), 1);
  auto t = [](int64_t v, uint64_t e = 1) { return GrammarSymbol{v, e}; };
  auto r = [](uint64_t k, uint64_t e = 1) { return GrammarSymbol{rule_symbol_value(k), e}; };
  rt.grammar.rules = {{t(0), t(1), r(1, 10), t(5), t(6)}, {t(2), t(3), t(4)}};
  rt.comms = {CommInfo{0, rank, 4, -1}};
  return rt;
}

inline TraceHeader ring_header(uint32_t nranks) {
  TraceHeader h;
  h.mpi_library = "Open MPI";
  h.mpi_version = "4.1.4";
  h.nranks = nranks;
  h.timing_mode = 1;
  h.command_line = "mpirun -np 4 ./ring --iterations 10";
  h.start_time_unix_ns = 1714566896123456789;
  return h;
}

// A site table (docs/FORMAT.md §5.1) of every kind: two sites with debug
// information in one file, one in a header, one without (a shared library
// address) and a compiler-plugin site id the plugin's table did not
// resolve. CST entry i gets site i % 6 (0: none).
inline std::vector<CallSite> ring_sites() {
  return {{"ring", 0x11d9, "/src/ring/ring.c", 12, 5, "main"},
          {"ring", 0x1204, "/src/ring/ring.c", 17, 9, "main"},
          {"ring", 0x1290, "/src/ring/util.h", 40, 3, "exchange(int)"},
          {"libhelper.so", 0x2040, "", 0, 0, "helper_send"},
          {"<plugin>", 7, "", 0, 0, ""}};
}
inline void give_sites(std::vector<CstEntry> &cst) {
  for (size_t i = 0; i < cst.size(); ++i)
    cst[i].site = static_cast<uint32_t>(i % 6);
}

inline std::vector<const FunctionInfo *> ring_functions() {
  std::vector<const FunctionInfo *> v;
  for (const char *n : {"MPI_Init", "MPI_Comm_rank", "MPI_Irecv", "MPI_Isend", "MPI_Waitall",
                        "MPI_Allreduce", "MPI_Finalize"})
    v.push_back(&function(n));
  return v;
}

inline std::string ring_trace_bytes(uint32_t nranks, bool timing = true) {
  std::vector<std::string> ranks;
  for (uint32_t r = 0; r < nranks; ++r)
    ranks.push_back(serialize_rank(ring_rank(static_cast<int>(r), timing)));
  return write_trace_to_memory(ring_header(nranks), ring_functions(), ranks);
}

// MPI_Win_create(buf#0, 64, 4, MPI_INFO_NULL, `comm`, win#`win`).
inline std::string win_create_sig(uint64_t comm, uint64_t win) {
  return SigBuilder("MPI_Win_create")
      .v(sig::buffer_id(0))
      .i(64)
      .i(4)
      .v(sig::kHandleNull)
      .v(comm)
      .arr(1)
      .v(sig::handle_user(win))
      .done();
}

// MPI_Put(buf#1, 1, MPI_INT, self`offset`, 0, 1, MPI_INT, win#`win`).
inline std::string put_sig(int64_t offset, uint64_t win) {
  return SigBuilder("MPI_Put")
      .v(sig::buffer_id(1))
      .i(1)
      .v(kInt)
      .v(sig::rank_relative(offset))
      .i(0)
      .i(1)
      .v(kInt)
      .v(sig::handle_user(win))
      .done();
}

// MPI_Irecv(buf#0, 1, MPI_INT, MPI_ANY_SOURCE, 0, `comm`, req#0).
inline std::string any_source_irecv_sig(uint64_t comm) {
  return SigBuilder("MPI_Irecv")
      .v(sig::buffer_id(0))
      .i(1)
      .v(kInt)
      .v(sig::kRankAnySource)
      .v(sig::tag_value(0))
      .v(comm)
      .arr(1)
      .v(sig::handle_user(0))
      .done();
}

// MPI_Send(buf#1, 1, MPI_INT, self`offset`, 0, `comm`).
inline std::string send_sig(int64_t offset, uint64_t comm) {
  return SigBuilder("MPI_Send")
      .v(sig::buffer_id(1))
      .i(1)
      .v(kInt)
      .v(sig::rank_relative(offset))
      .v(sig::tag_value(0))
      .v(comm)
      .done();
}

// MPI_Waitall(1, [req#0]->[MPI_REQUEST_NULL], [{source=self`offset`, tag=0,
// count=4}]); `kept`: MPI_STATUSES_IGNORE with the sender kept (format
// version 5), MPI_STATUSES_IGNORE[{source=self`offset`}].
inline std::string waitall_one_sig(int64_t source_offset, bool kept = false) {
  SigBuilder b("MPI_Waitall");
  b.i(1)
      .arr(1)
      .v(sig::handle_user(0))
      .arr(1)
      .v(sig::kHandleNull)
      .arr(1)
      .v(kept ? sig::kStatusSourceKept : sig::kStatusFull)
      .v(sig::rank_relative(source_offset));
  if (!kept)
    b.v(sig::tag_value(0)).i(4);
  return b.done();
}

// MPI_Waitall(1, [req#0]->[MPI_REQUEST_NULL], MPI_STATUSES_IGNORE) of an
// MPI_ANY_SOURCE receive, with what it matched kept (format version 10):
// MPI_STATUSES_IGNORE[{source=self`offset`, tag=0, count=4}].
inline std::string waitall_one_match_kept_sig(int64_t source_offset) {
  return SigBuilder("MPI_Waitall")
      .i(1)
      .arr(1)
      .v(sig::handle_user(0))
      .arr(1)
      .v(sig::kHandleNull)
      .arr(1)
      .v(sig::kStatusMatchKept)
      .v(sig::rank_relative(source_offset))
      .v(sig::tag_value(0))
      .i(4)
      .done();
}

// A rank of a run that reuses communicator and window ids: a split with
// reversed keys (comm#0, rank nranks-1-rank) with a wildcard receive, a send
// and a window put in it, freed, then a split in rank order reusing comm#0
// (rank `rank`) and win#0 with the same calls.
//   R0 -> t0 R1 t6 t7 R1      R1 -> t1 t2 t3 t4 t5
inline RankTrace comm_reuse_rank(int rank, int nranks) {
  RankTrace rt;
  auto add = [&](std::string sig, uint64_t count) {
    CstEntry e;
    e.signature = std::move(sig);
    e.count = count;
    rt.cst.push_back(std::move(e));
  };
  auto split = [](int key) {
    return SigBuilder("MPI_Comm_split").v(kWorld).i(0).i(key).arr(1).v(sig::handle_user(0)).done();
  };
  const uint64_t comm0 = sig::handle_user(0);
  add(split(nranks - 1 - rank), 1);
  add(any_source_irecv_sig(comm0), 2);
  add(send_sig(1, comm0), 2);
  add(waitall_one_sig(-1), 2);
  add(win_create_sig(comm0, 0), 2);
  add(put_sig(1, 0), 2);
  add(SigBuilder("MPI_Comm_free").arr(1).v(comm0).arr(1).v(sig::kHandleNull).done(), 1);
  add(split(rank), 1);
  auto t = [](int64_t v, uint64_t e = 1) { return GrammarSymbol{v, e}; };
  auto r = [](uint64_t k, uint64_t e = 1) { return GrammarSymbol{rule_symbol_value(k), e}; };
  rt.grammar.rules = {{t(0), r(1), t(6), t(7), r(1)}, {t(1), t(2), t(3), t(4), t(5)}};
  rt.comms = {CommInfo{0, nranks - 1 - rank, nranks, -1}, CommInfo{0, rank, nranks, -1}};
  return rt;
}

// `bytes` (a whole file) relabelled as format version `version`: header
// bytes 8..9 and the header's CRC change, nothing else. Only for versions
// whose layout is the one the bytes were written in (to write an older
// version's layout, WriteOptions::format_version).
inline std::string with_version(std::string bytes, uint16_t version) {
  bytes[8] = static_cast<char>(version & 0xff);
  bytes[9] = static_cast<char>(version >> 8);
  const uint32_t crc = crc32c(reinterpret_cast<const uint8_t *>(bytes.data()), 28);
  for (int i = 0; i < 4; ++i)
    bytes[28 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
  return bytes;
}

// The comm_reuse ranks as a merged trace of format version `version` (2 to
// 5; 2 to 4 the same bytes but for the header's version).
inline std::string comm_reuse_trace_bytes(int nranks, uint16_t version) {
  std::vector<RankTrace> ranks;
  for (int r = 0; r < nranks; ++r)
    ranks.push_back(comm_reuse_rank(r, nranks));
  TraceHeader h = ring_header(static_cast<uint32_t>(nranks));
  std::vector<const FunctionInfo *> functions;
  for (const char *n : {"MPI_Send", "MPI_Irecv", "MPI_Waitall", "MPI_Comm_split", "MPI_Comm_free",
                        "MPI_Win_create", "MPI_Put"})
    functions.push_back(&function(n));
  WriteOptions o;
  o.format_version = version;
  return write_merged_trace_to_memory(h, functions, merged_from_ranks(std::move(ranks)), o);
}

// MPI_Type_create_hindexed(3, [1, 2, 1], [ptr#0, ptr#0+8, 16], MPI_INT,
// type#0): displacements of role Address (format version 4).
// pilgrim_datatype_layout(datatype, size, lb=0, ub=extent, true_lb,
// true_ub=true_lb+true_extent): the tracer's fact of a datatype's layout
// (format version 5), its bounds plain numbers.
inline std::string datatype_layout_sig(uint64_t type, int64_t size, int64_t extent, int64_t true_lb,
                                       int64_t true_extent) {
  return SigBuilder("pilgrim_datatype_layout")
      .v(type)
      .i(size)
      .arr(1)
      .v(sig::kAddressValue)
      .i(0)
      .arr(1)
      .v(sig::kAddressValue)
      .i(extent)
      .arr(1)
      .v(sig::kAddressValue)
      .i(true_lb)
      .arr(1)
      .v(sig::kAddressValue)
      .i(true_lb + true_extent)
      .done();
}

inline std::string hindexed_over_addresses_sig() {
  return SigBuilder("MPI_Type_create_hindexed")
      .i(3)
      .arr(3)
      .i(1)
      .i(2)
      .i(1)
      .arr(3)
      .v(sig::address_id(0))
      .i(0)
      .v(sig::address_id(0))
      .i(8)
      .v(sig::kAddressValue)
      .i(16)
      .v(kInt)
      .arr(1)
      .v(sig::handle_user(0))
      .done();
}

// A rank that builds a datatype over its own addresses (format version 4):
// Type_create_hindexed with displacements [ptr#0, ptr#0+8, 16], then a Get
// from the next rank of a dynamic window at that rank's ptr#1+4.
inline RankTrace address_rank(int rank, int nranks) {
  RankTrace rt;
  auto add = [&](std::string sig) {
    CstEntry e;
    e.signature = std::move(sig);
    e.count = 1;
    rt.cst.push_back(std::move(e));
  };
  add(SigBuilder("MPI_Init").byte(1).byte(1).done());
  add(hindexed_over_addresses_sig());
  add(SigBuilder("MPI_Get")
          .v(sig::buffer_id(2))
          .i(1)
          .v(kInt)
          .v(sig::rank_relative(rank + 1 < nranks ? 1 : 1 - nranks))
          .v(sig::address_id(1))
          .i(4)
          .i(1)
          .v(kInt)
          .v(sig::handle_user(0))
          .done());
  add(SigBuilder("MPI_Finalize").done());
  rt.grammar.rules = {
      {GrammarSymbol{0, 1}, GrammarSymbol{1, 1}, GrammarSymbol{2, 1}, GrammarSymbol{3, 1}}};
  return rt;
}

inline std::string address_trace_bytes(int nranks) {
  std::vector<RankTrace> ranks;
  for (int r = 0; r < nranks; ++r)
    ranks.push_back(address_rank(r, nranks));
  std::vector<const FunctionInfo *> functions;
  for (const char *n : {"MPI_Init", "MPI_Type_create_hindexed", "MPI_Get", "MPI_Finalize"})
    functions.push_back(&function(n));
  return write_merged_trace_to_memory(ring_header(static_cast<uint32_t>(nranks)), functions,
                                      merged_from_ranks(std::move(ranks)));
}

} // namespace pilgrim::sample
