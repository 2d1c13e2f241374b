// Loads and validates the annotation sidecars (generator/annotations/*.yaml).
#pragma once

#include "sidecar_model.h"

#include <string>
#include <vector>

namespace pilgrim::gen {

struct SidecarDiagnostic {
  SourceLoc loc;
  std::string message;
  std::string str() const; // "FILE:LINE: error: MESSAGE"
};

// Loads every file; all problems found are appended to `errors` (the set is
// only meaningful when `errors` stays empty).
SidecarSet load_sidecars(const std::vector<std::string> &files,
                         std::vector<SidecarDiagnostic> &errors);

// Every *.yaml file in `dir`, sorted by name. Missing directory: error entry.
std::vector<std::string> sidecar_files_in(const std::string &dir,
                                          std::vector<SidecarDiagnostic> &errors);

// Name tables shared with the emitters and reports.
const char *role_name(Role r);
const char *direction_name(Direction d);
const char *handle_kind_name(HandleKind k);
const char *handle_action_name(HandleAction a);

}  // namespace pilgrim::gen
