// The annotation sidecars as loaded from YAML, before they are joined with
// the header. See docs/ANNOTATIONS.md for the schema.
#pragma once

#include "length_expression.h"
#include "pilgrim/function_table.h"
#include "pilgrim/record_ranges.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pilgrim::gen {

struct SourceLoc {
  std::string file;
  int line = 0;
};

struct SidecarParam {
  std::string name;
  SourceLoc loc;
  Role role = Role::Value;
  Direction dir = Direction::In;
  bool dir_given = false;
  HandleKind kind = HandleKind::None;
  HandleAction action = HandleAction::None;
  std::string comm;     // rank: comm/group param
  std::string count;    // buffer: count param
  std::string datatype; // buffer: datatype param
  std::string bytes;    // buffer: size-in-bytes param
  std::string root;     // root-only significance
  std::string index;    // status: which request completed
  std::string flag;     // out: the out flag that says whether MPI wrote it
  bool record = false;  // callback: the runtime records each invocation
  bool layout = false;  // datatype handle: record its layout after the call succeeds
  bool fortran_choice =
      false; // pointer: in Fortran a choice argument (its address is the C pointer)
  // pointer: in Fortran an INTEGER (not INTEGER(KIND=MPI_ADDRESS_KIND)) whose
  // value is C's pointer (the MPI-1 attribute functions)
  bool fortran_int = false;
  // pointer out: the Fortran binding returns nothing there, so a local
  // receives C's value (MPI_Buffer_detach's address, unusable in Fortran)
  bool fortran_local = false;
  std::string type;   // a record's parameter: its C type (records have no prototype)
  std::string target; // address: the target rank (a rank in a window) it is a displacement at
  bool relative = true;
  bool nullterm = false;
  std::unique_ptr<LengthExpr> len; // null: not an array
  std::string len_text;
};

struct SidecarFunction {
  std::string name;
  SourceLoc loc;
  int id = -1;
  RecordKind kind = RecordKind::None; // a record that is not an MPI call (records.yaml)
  std::string note;
  std::vector<SidecarParam> params;
  int param_index(const std::string &name) const;
};

struct SidecarSet {
  std::vector<SidecarFunction> functions; // MPI functions
  std::vector<SidecarFunction> records;   // records that are not MPI calls, in file order
  std::map<std::string, size_t> by_name;  // MPI functions
  const SidecarFunction *find(const std::string &name) const;
};

} // namespace pilgrim::gen
