#include "regions.h"

#include "call_inline.h"
#include "signatures/generated_function_table.h"
#include "pilgrim/record_ranges.h"

#include <cstring>

namespace pilgrim::rt {
namespace {

// The calls that change a handle they take by value: the standard's setters
// (MPI_Comm_set_errhandler, MPI_Info_set, MPI_File_set_view, ...), and the
// attribute and info deletions and their deprecated forms.
bool changes_a_handle(const char *name) {
  static const char *const kNames[] = {"MPI_Info_delete", "MPI_Attr_put", "MPI_Attr_delete",
                                       "MPI_Errhandler_set"};
  for (const char *n : kNames)
    if (std::strcmp(name, n) == 0)
      return true;
  return std::strncmp(name, "MPI_", 4) == 0 &&
         (std::strstr(name, "_set_") != nullptr || std::strstr(name, "_delete_attr") != nullptr);
}

RegionRule rule_of(const FunctionInfo &f) {
  if (record_kind(f.id) == RecordKind::Marker || record_kind(f.id) == RecordKind::Fact)
    return RegionRule::Kept;
  if (f.name && changes_a_handle(f.name))
    return RegionRule::Kept;
  bool requests = false;
  for (uint8_t i = 0; i < f.nparams; ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Handle)
      continue;
    switch (p.handle_kind) {
    case HandleKind::Request:
      requests = true;
      break;
    case HandleKind::None:
    case HandleKind::Message: // a matched message is traffic, like a request
    case HandleKind::Fd:      // POSIX records: PILGRIM_POSIX, off while tracing is
    case HandleKind::Stream:
      break;
    default:
      if (p.action == HandleAction::Create || p.action == HandleAction::Free ||
          p.dir != Direction::In)
        return RegionRule::Kept;
    }
  }
  return requests ? RegionRule::Requests : RegionRule::Traffic;
}

// One marker: no time of its own, return code 0.
template <class Params> void marker(uint16_t id, Params params) {
  Call c(id);
  if (!c.active())
    return;
  params(c);
  c.start();
  c.stop();
  c.finish(0);
}

} // namespace

std::vector<RegionRule> region_rules(uint16_t id_init, uint16_t id_init_thread,
                                     uint16_t id_finalize) {
  std::vector<RegionRule> rules;
  for (size_t i = 0; i < traced_function_count(); ++i) {
    const FunctionInfo &f = traced_function(i);
    if (rules.size() <= f.id)
      rules.resize(f.id + 1u, RegionRule::Traffic);
    rules[f.id] = rule_of(f);
  }
  for (uint16_t id : {id_init, id_init_thread, id_finalize})
    if (id < rules.size())
      rules[id] = RegionRule::Kept;
  return rules;
}

void pcontrol(int level) {
  Recorder &r = Recorder::get();
  if (level == 0)
    r.set_tracing(false);
  marker(kPcontrolMarker, [level](Call &c) { c.value(level); });
  if (level > 0)
    r.set_tracing(true);
}

} // namespace pilgrim::rt

using namespace pilgrim::rt;

extern "C" void pilgrim_phase(const char *name) {
  marker(pilgrim::kPhaseMarker, [name](Call &c) { c.string(name); });
}

extern "C" void pilgrim_trace_off(void) {
  marker(pilgrim::kTraceOffMarker, [](Call &) {});
  Recorder::get().set_tracing(false);
}

extern "C" void pilgrim_trace_on(void) {
  Recorder::get().set_tracing(true);
  marker(pilgrim::kTraceOnMarker, [](Call &) {});
}
