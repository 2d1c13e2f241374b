#include "pilgrim/environmental_outputs.h"

#include <cstring>

#include "pilgrim/predefined_handles.h"

namespace pilgrim {

namespace {

using W = EnvironmentalWhen;

// The functions that return an info MPI filled in.
const char *const kInfoFromMpiFunctions[] = {
    "MPI_Comm_get_info",
    "MPI_Win_get_info",
    "MPI_File_get_info",
    "MPI_Session_get_info",
    "MPI_Session_get_pset_info",
    "MPI_Info_create_env",
    "MPI_Abi_get_info",
    "MPI_Abi_get_fortran_info",
    "MPI_Get_hw_resource_info",
    "MPI_T_event_handle_get_info",
    "MPI_T_event_callback_get_info",
};

bool is_named(const Call &call, const char *name) {
  return call.function && call.function->name && std::strcmp(call.function->name, name) == 0;
}

// The call's first Info parameter that is not created by it, or -1.
int info_param(const Call &call) {
  for (size_t p = 0; p < call.args.size(); ++p) {
    const ParamInfo &pi = *call.args[p].param;
    if (pi.role == Role::Handle && pi.handle_kind == HandleKind::Info &&
        pi.action != HandleAction::Create)
      return static_cast<int>(p);
  }
  return -1;
}

const CallElement *single(const CallValue *v) {
  return v && !v->null && v->elements.size() == 1 ? &v->elements[0] : nullptr;
}

} // namespace

const EnvironmentalOutput kEnvironmentalOutputs[] = {
    // The host and the MPI library.
    {"MPI_Get_processor_name", "name", W::Always},
    {"MPI_Get_processor_name", "resultlen", W::Always},
    {"MPI_Get_library_version", "version", W::Always},
    {"MPI_Get_library_version", "resultlen", W::Always},
    {"MPI_Get_version", "version", W::Always},
    {"MPI_Get_version", "subversion", W::Always},
    // Ports are the library's addresses.
    {"MPI_Open_port", "port_name", W::Always},
    {"MPI_Lookup_name", "port_name", W::Always},
    // What a program reads from an info MPI filled in.
    {"MPI_Info_get", "*", W::InfoFromMpi},
    {"MPI_Info_get_valuelen", "*", W::InfoFromMpi},
    {"MPI_Info_get_string", "*", W::InfoFromMpi},
    {"MPI_Info_get_nkeys", "*", W::InfoFromMpi},
    {"MPI_Info_get_nthkey", "*", W::InfoFromMpi},
    // The library's handle values, and the integers a program turns back
    // into handles.
    {"MPI_Comm_c2f", "return", W::Always},
    {"MPI_Comm_f2c", "comm", W::Always},
    {"MPI_Comm_f2c", "return", W::Always},
    {"MPI_Comm_toint", "return", W::Always},
    {"MPI_Comm_fromint", "comm", W::Always},
    {"MPI_Comm_fromint", "return", W::Always},
    {"MPI_Errhandler_c2f", "return", W::Always},
    {"MPI_Errhandler_f2c", "errhandler", W::Always},
    {"MPI_Errhandler_f2c", "return", W::Always},
    {"MPI_Errhandler_toint", "return", W::Always},
    {"MPI_Errhandler_fromint", "errhandler", W::Always},
    {"MPI_Errhandler_fromint", "return", W::Always},
    {"MPI_File_c2f", "return", W::Always},
    {"MPI_File_f2c", "file", W::Always},
    {"MPI_File_f2c", "return", W::Always},
    {"MPI_File_toint", "return", W::Always},
    {"MPI_File_fromint", "file", W::Always},
    {"MPI_File_fromint", "return", W::Always},
    {"MPI_Group_c2f", "return", W::Always},
    {"MPI_Group_f2c", "group", W::Always},
    {"MPI_Group_f2c", "return", W::Always},
    {"MPI_Group_toint", "return", W::Always},
    {"MPI_Group_fromint", "group", W::Always},
    {"MPI_Group_fromint", "return", W::Always},
    {"MPI_Info_c2f", "return", W::Always},
    {"MPI_Info_f2c", "info", W::Always},
    {"MPI_Info_f2c", "return", W::Always},
    {"MPI_Info_toint", "return", W::Always},
    {"MPI_Info_fromint", "info", W::Always},
    {"MPI_Info_fromint", "return", W::Always},
    {"MPI_Message_c2f", "return", W::Always},
    {"MPI_Message_f2c", "message", W::Always},
    {"MPI_Message_f2c", "return", W::Always},
    {"MPI_Message_toint", "return", W::Always},
    {"MPI_Message_fromint", "message", W::Always},
    {"MPI_Message_fromint", "return", W::Always},
    {"MPI_Op_c2f", "return", W::Always},
    {"MPI_Op_f2c", "op", W::Always},
    {"MPI_Op_f2c", "return", W::Always},
    {"MPI_Op_toint", "return", W::Always},
    {"MPI_Op_fromint", "op", W::Always},
    {"MPI_Op_fromint", "return", W::Always},
    {"MPI_Request_c2f", "return", W::Always},
    {"MPI_Request_f2c", "request", W::Always},
    {"MPI_Request_f2c", "return", W::Always},
    {"MPI_Request_toint", "return", W::Always},
    {"MPI_Request_fromint", "request", W::Always},
    {"MPI_Request_fromint", "return", W::Always},
    {"MPI_Session_c2f", "return", W::Always},
    {"MPI_Session_f2c", "session", W::Always},
    {"MPI_Session_f2c", "return", W::Always},
    {"MPI_Session_toint", "return", W::Always},
    {"MPI_Session_fromint", "session", W::Always},
    {"MPI_Session_fromint", "return", W::Always},
    {"MPI_Type_c2f", "return", W::Always},
    {"MPI_Type_f2c", "datatype", W::Always},
    {"MPI_Type_f2c", "return", W::Always},
    {"MPI_Type_toint", "return", W::Always},
    {"MPI_Type_fromint", "datatype", W::Always},
    {"MPI_Type_fromint", "return", W::Always},
    {"MPI_Win_c2f", "return", W::Always},
    {"MPI_Win_f2c", "win", W::Always},
    {"MPI_Win_f2c", "return", W::Always},
    {"MPI_Win_toint", "return", W::Always},
    {"MPI_Win_fromint", "win", W::Always},
    {"MPI_Win_fromint", "return", W::Always},
    // Memory of size 0: NULL or not, as the library pleases.
    {"MPI_Alloc_mem", "baseptr", W::ZeroSize},
    {"MPI_Win_allocate", "baseptr", W::ZeroSize},
    {"MPI_Win_allocate_c", "baseptr", W::ZeroSize},
    {"MPI_Win_allocate_shared", "baseptr", W::ZeroSize},
    {"MPI_Win_allocate_shared_c", "baseptr", W::ZeroSize},
    // The neighbors MPI collected from the edges other processes gave: in
    // the order their messages arrived.
    {"MPI_Dist_graph_neighbors", "sources", W::GeneralDistGraph},
    {"MPI_Dist_graph_neighbors", "sourceweights", W::GeneralDistGraph},
    {"MPI_Dist_graph_neighbors", "destinations", W::GeneralDistGraph},
    {"MPI_Dist_graph_neighbors", "destweights", W::GeneralDistGraph},
    // Paths name the files of the machine and directory a program ran in; a
    // proxy opens the same files under other paths, in its scratch directory
    // (proxygen/README.md, Files).
    {"MPI_File_open", "filename", W::Always},
    {"MPI_File_delete", "filename", W::Always},
};
const size_t kEnvironmentalOutputCount =
    sizeof kEnvironmentalOutputs / sizeof kEnvironmentalOutputs[0];

bool EnvironmentalOutputs::info_from_mpi(const Call &call) const {
  const int p = info_param(call);
  if (p < 0)
    return false;
  const CallElement *e = single(call.args[static_cast<size_t>(p)].any());
  if (!e)
    return false;
  if (e->handle.predefined()) // MPI_INFO_ENV is the only predefined info
    return true;
  return e->handle.user() && infos_.count(e->handle.id) != 0;
}

bool EnvironmentalOutputs::general_dist_graph(const Call &call) const {
  for (const CallArg &a : call.args) {
    if (a.role() != Role::Handle || a.param->handle_kind != HandleKind::Comm)
      continue;
    const CallElement *e = single(a.any());
    return e && e->handle.user() && graphs_.count(e->handle.id) != 0;
  }
  return false;
}

bool EnvironmentalOutputs::environmental(const Call &call, int param) const {
  const EnvironmentalOutput *o = applies(call, param);
  return o && o->when != W::GeneralDistGraph;
}

bool EnvironmentalOutputs::unordered(const Call &call, int param) const {
  const EnvironmentalOutput *o = applies(call, param);
  return o && o->when == W::GeneralDistGraph;
}

const EnvironmentalOutput *EnvironmentalOutputs::applies(const Call &call, int param) const {
  if (!call.function || !call.function->name)
    return nullptr;
  const char *name = param < 0                                       ? "return"
                     : static_cast<size_t>(param) < call.args.size() ? call.args[param].param->name
                                                                     : nullptr;
  if (!name)
    return nullptr;
  const bool handle = param >= 0 && call.args[param].role() == Role::Handle;
  for (const EnvironmentalOutput &o : kEnvironmentalOutputs) {
    if (std::strcmp(o.function, call.function->name) != 0)
      continue;
    const bool star = std::strcmp(o.parameter, "*") == 0;
    if (!(star ? param >= 0 && !handle : std::strcmp(o.parameter, name) == 0))
      continue;
    switch (o.when) {
    case W::Always:
      return &o;
    case W::InfoFromMpi:
      if (info_from_mpi(call))
        return &o;
      break;
    case W::ZeroSize:
      for (const CallArg &a : call.args) {
        const CallElement *size = single(a.any());
        if (std::strcmp(a.param->name, "size") == 0 && size && size->integer == 0)
          return &o;
      }
      break;
    case W::GeneralDistGraph:
      if (general_dist_graph(call))
        return &o;
      break;
    }
  }
  return nullptr;
}

namespace {

// Records the user handles of `kind` that `call` creates in `ids` when `in`,
// and forgets them (an id reused for another object) otherwise.
void track_created(const Call &call, HandleKind kind, bool in, std::set<uint64_t> &ids) {
  for (const CallArg &a : call.args) {
    const ParamInfo &pi = *a.param;
    if (pi.role != Role::Handle || pi.handle_kind != kind || pi.action != HandleAction::Create ||
        !a.has_out)
      continue;
    for (const CallElement &e : a.out.elements) {
      if (!e.handle.user())
        continue;
      if (in)
        ids.insert(e.handle.id);
      else
        ids.erase(e.handle.id);
    }
  }
}

} // namespace

void EnvironmentalOutputs::apply(const Call &call) {
  if (!call.function)
    return;
  bool filled_by_mpi = false;
  for (const char *f : kInfoFromMpiFunctions)
    filled_by_mpi |= is_named(call, f);
  if (is_named(call, "MPI_Info_dup"))
    filled_by_mpi = info_from_mpi(call); // a duplicate has the original's contents
  track_created(call, HandleKind::Info, filled_by_mpi, infos_);
  track_created(call, HandleKind::Comm, is_named(call, "MPI_Dist_graph_create"), graphs_);
}

} // namespace pilgrim
