// Joins the header's declarations with the sidecars' meaning: one resolved
// model per function to wrap, plus what the coverage report lists.
#pragma once

#include "header_model.h"
#include "sidecar_loader.h"

#include <deque>
#include <string>
#include <vector>

namespace pilgrim::gen {

struct JoinedParam {
  const HeaderParam *header = nullptr; // null for the "..." of a variadic function
  const SidecarParam *sidecar = nullptr;
  uint16_t flags = 0;
  int ref = -1, ref2 = -1, ref3 = -1;
  std::vector<LenInstr> rpn;
};

struct JoinedFunction {
  const HeaderFunction *header = nullptr;
  const SidecarFunction *sidecar = nullptr;
  bool defaulted = false;
  std::vector<JoinedParam> params;
  const std::string &name() const { return header->name; }
  int id() const { return sidecar->id; }
};

struct JoinResult {
  std::vector<JoinedFunction> wrapped;          // sorted by id
  std::vector<JoinedFunction> records;          // records that are not MPI calls, sorted by id
  std::vector<std::string> left_out_optional;   // MPI_Wtime, MPI_Wtick
  std::vector<std::string> defaulted;           // wrapped with default annotations
  std::vector<std::string> unannotated;         // errors: no sidecar entry
  std::vector<std::string> sidecar_only;        // sidecar entries the header lacks
  std::vector<SidecarDiagnostic> errors;        // sidecar/header mismatches
  std::vector<std::string> plain_errors;        // errors without a sidecar location
  std::deque<SidecarFunction> synthesized;      // storage for defaulted entries
  std::deque<HeaderFunction> record_prototypes; // storage for the records' prototypes
};

// The MPI functions of `header` with their sidecars, then the records
// (join_records).
JoinResult join(const HeaderModel &header, const SidecarSet &sidecars);

// Joins one function's sidecar with its prototype: roles against C types,
// flags, references and length programs into `jf`; false (with errors) when
// they do not fit.
bool join_params(const HeaderFunction &hf, const SidecarFunction &sf, JoinedFunction &jf,
                 std::vector<SidecarDiagnostic> &errors);

// The records of `sidecars` (records.yaml), each joined with the prototype
// its parameters' `type`s make (record_join.cpp), into r.records.
void join_records(const SidecarSet &sidecars, JoinResult &r);
// The prototype parameter C type `type` ("const int *", "MPI_Datatype",
// "MPI_Comm_copy_attr_function *") makes; base Other when unknown.
HeaderParam record_param(const std::string &type);

// FNV-1a-32 based fallback id for defaulted functions (docs/ANNOTATIONS.md).
int default_function_id(const std::string &name);

} // namespace pilgrim::gen
