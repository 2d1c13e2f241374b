#include "pilgrim/callback_records.h"

namespace pilgrim {
namespace {

// The parameters of the record rows: the application's function first, then
// the callback's own parameters with the standard's names and the encoding
// of the MPI functions' parameters of the same meaning (attribute values and
// extra_state as Pointer, keyvals as Keyval handles).
constexpr ParamInfo row(const char *name, const char *c_type, CType base, Role role, Direction dir,
                        HandleKind kind, uint16_t flags) {
  const HandleAction action = role == Role::Handle ? HandleAction::Use : HandleAction::None;
  return ParamInfo{name,  c_type, base, role, dir, kind,    action,
                   flags, -1,     -1,   -1,   0,   nullptr, nullptr};
}
constexpr ParamInfo function(const char *c_type) {
  return row("function", c_type, CType::Function, Role::Callback, Direction::In, HandleKind::None,
             0);
}
constexpr ParamInfo object(const char *name, const char *c_type, HandleKind kind) {
  return row(name, c_type, CType::Handle, Role::Handle, Direction::In, kind, 0);
}
constexpr ParamInfo keyval(const char *name) {
  return row(name, "int", CType::Int, Role::Handle, Direction::In, HandleKind::Keyval, 0);
}
constexpr ParamInfo pointer(const char *name, Direction dir) {
  return row(name, "void *", CType::Void, Role::Pointer, dir, HandleKind::None, kFlagPointer);
}
constexpr ParamInfo flag() {
  return row("flag", "int *", CType::Int, Role::Value, Direction::Out, HandleKind::None,
             kFlagPointer);
}

const ParamInfo kCommCopy[] = {function("MPI_Comm_copy_attr_function *"),
                               object("oldcomm", "MPI_Comm", HandleKind::Comm),
                               keyval("comm_keyval"),
                               pointer("extra_state", Direction::In),
                               pointer("attribute_val_in", Direction::In),
                               pointer("attribute_val_out", Direction::Out),
                               flag()};
const ParamInfo kCommDelete[] = {function("MPI_Comm_delete_attr_function *"),
                                 object("comm", "MPI_Comm", HandleKind::Comm),
                                 keyval("comm_keyval"), pointer("attribute_val", Direction::In),
                                 pointer("extra_state", Direction::In)};
const ParamInfo kTypeCopy[] = {function("MPI_Type_copy_attr_function *"),
                               object("oldtype", "MPI_Datatype", HandleKind::Datatype),
                               keyval("type_keyval"),
                               pointer("extra_state", Direction::In),
                               pointer("attribute_val_in", Direction::In),
                               pointer("attribute_val_out", Direction::Out),
                               flag()};
const ParamInfo kTypeDelete[] = {function("MPI_Type_delete_attr_function *"),
                                 object("datatype", "MPI_Datatype", HandleKind::Datatype),
                                 keyval("type_keyval"), pointer("attribute_val", Direction::In),
                                 pointer("extra_state", Direction::In)};
const ParamInfo kWinCopy[] = {function("MPI_Win_copy_attr_function *"),
                              object("oldwin", "MPI_Win", HandleKind::Win),
                              keyval("win_keyval"),
                              pointer("extra_state", Direction::In),
                              pointer("attribute_val_in", Direction::In),
                              pointer("attribute_val_out", Direction::Out),
                              flag()};
const ParamInfo kWinDelete[] = {function("MPI_Win_delete_attr_function *"),
                                object("win", "MPI_Win", HandleKind::Win), keyval("win_keyval"),
                                pointer("attribute_val", Direction::In),
                                pointer("extra_state", Direction::In)};

} // namespace

const FunctionInfo kCallbackRecordFunctions[] = {
    {kCommCopyRecord, "MPI_Comm_copy_attr_function", 7, kCommCopy},
    {kCommDeleteRecord, "MPI_Comm_delete_attr_function", 5, kCommDelete},
    {kTypeCopyRecord, "MPI_Type_copy_attr_function", 7, kTypeCopy},
    {kTypeDeleteRecord, "MPI_Type_delete_attr_function", 5, kTypeDelete},
    {kWinCopyRecord, "MPI_Win_copy_attr_function", 7, kWinCopy},
    {kWinDeleteRecord, "MPI_Win_delete_attr_function", 5, kWinDelete},
};
const size_t kCallbackRecordCount =
    sizeof kCallbackRecordFunctions / sizeof kCallbackRecordFunctions[0];

bool callback_record_kind(uint16_t function_id, CallbackRecordKind &kind) {
  switch (function_id) {
  case kCommCopyRecord:
    kind = {true, HandleKind::Comm};
    return true;
  case kCommDeleteRecord:
    kind = {false, HandleKind::Comm};
    return true;
  case kTypeCopyRecord:
    kind = {true, HandleKind::Datatype};
    return true;
  case kTypeDeleteRecord:
    kind = {false, HandleKind::Datatype};
    return true;
  case kWinCopyRecord:
    kind = {true, HandleKind::Win};
    return true;
  case kWinDeleteRecord:
    kind = {false, HandleKind::Win};
    return true;
  default:
    return false;
  }
}

} // namespace pilgrim
