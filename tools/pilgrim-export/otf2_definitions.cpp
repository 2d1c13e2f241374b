#include "otf2_definitions.h"

#include <algorithm>
#include <map>
#include <string>

#include "otf2_archive.h"
#include "otf2_communicators.h"
#include "otf2_functions.h"

namespace pilgrim::exporter {

namespace {

// Strings are written first and referred to by index.
class Strings {
public:
  explicit Strings(OTF2_GlobalDefWriter *g) : g_(g) {}
  OTF2_StringRef operator()(const std::string &text) {
    const auto it = refs_.find(text);
    if (it != refs_.end())
      return it->second;
    const OTF2_StringRef ref = static_cast<OTF2_StringRef>(refs_.size());
    otf2_check(OTF2_GlobalDefWriter_WriteString(g_, ref, text.c_str()), "writing a string");
    refs_.emplace(text, ref);
    return ref;
  }

private:
  OTF2_GlobalDefWriter *g_;
  std::map<std::string, OTF2_StringRef> refs_;
};

// Groups of world ranks (indices into the COMM_LOCATIONS group), one per
// distinct membership.
class Groups {
public:
  Groups(OTF2_GlobalDefWriter *g, Strings &s) : g_(g), s_(s) {}
  OTF2_GroupRef write(OTF2_GroupType type, const std::vector<uint64_t> &members) {
    const auto key = std::make_pair(static_cast<int>(type), members);
    const auto it = refs_.find(key);
    if (it != refs_.end())
      return it->second;
    const OTF2_GroupRef ref = static_cast<OTF2_GroupRef>(refs_.size());
    otf2_check(OTF2_GlobalDefWriter_WriteGroup(
                   g_, ref, s_(""), type, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                   static_cast<uint32_t>(members.size()), members.data()),
               "writing a group");
    refs_.emplace(key, ref);
    return ref;
  }
  OTF2_GroupRef of(const std::vector<int64_t> &world_ranks) {
    std::vector<uint64_t> members;
    for (int64_t w : world_ranks)
      if (w >= 0) // a process outside this trace: OTF2 has no location for it
        members.push_back(static_cast<uint64_t>(w));
    return write(OTF2_GROUP_TYPE_COMM_GROUP, members);
  }

private:
  OTF2_GlobalDefWriter *g_;
  Strings &s_;
  std::map<std::pair<int, std::vector<uint64_t>>, OTF2_GroupRef> refs_;
};

std::string comm_name(const CommInstance &c) {
  std::string name = "comm#" + std::to_string(c.comm_id);
  if (c.occurrence)
    name += " (instance " + std::to_string(c.occurrence + 1) + ")";
  return name;
}

} // namespace

std::vector<OTF2_RegionRef> otf2_regions(const reader::TraceFile &trace) {
  std::vector<bool> used(1u << 16, false);
  trace.visit_cst(
      [&](uint64_t, const CstEntry &, const Call &call) { used[call.function_id] = true; });
  std::vector<OTF2_RegionRef> regions(1u << 16, OTF2_UNDEFINED_REGION);
  OTF2_RegionRef next = 0;
  for (size_t id = 0; id < used.size(); ++id)
    if (used[id])
      regions[id] = next++;
  return regions;
}

void write_global_definitions(OTF2_Archive *archive, const reader::TraceFile &trace,
                              const std::vector<OTF2_RegionRef> &regions,
                              const std::vector<CommInstance> &instances,
                              const Otf2Written &written) {
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!g)
    throw Otf2Error("cannot open the global definition writer");
  const uint64_t first = written.first_ns == UINT64_MAX ? 0 : written.first_ns;
  const uint64_t last = std::max(first, written.last_ns);
  otf2_check(OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, first, last - first + 1,
                                                       OTF2_UNDEFINED_TIMESTAMP),
             "writing the clock properties");
  Strings s(g);
  otf2_check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, s("MPI"),
                                                OTF2_PARADIGM_CLASS_PROCESS),
             "writing the MPI paradigm");
  for (size_t id = 0; id < regions.size(); ++id) {
    if (regions[id] == OTF2_UNDEFINED_REGION)
      continue;
    // A function id the trace's table lacks keeps its number.
    const FunctionInfo *fn = trace.function(static_cast<uint16_t>(id));
    const std::string text = fn ? fn->name : "function#" + std::to_string(id);
    const OTF2_StringRef name = s(text);
    otf2_check(OTF2_GlobalDefWriter_WriteRegion(g, regions[id], name, name, s(""),
                                                otf2_function(text).role, OTF2_PARADIGM_MPI,
                                                OTF2_REGION_FLAG_NONE, s(""), 0, 0),
               "writing a region");
  }
  // The trace records no host names: one node stands for the machine(s).
  otf2_check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, s("machine"), s("machine"),
                                                      OTF2_UNDEFINED_SYSTEM_TREE_NODE),
             "writing the system tree");
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    otf2_check(OTF2_GlobalDefWriter_WriteLocationGroup(g, r, s("MPI Rank " + std::to_string(r)),
                                                       OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                       OTF2_UNDEFINED_LOCATION_GROUP),
               "writing a location group");
  // Every rank has its main-thread location (COMM_LOCATIONS names it), with
  // no events where the trace has none on it.
  std::vector<Otf2Location> locations = written.locations;
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    if (std::none_of(locations.begin(), locations.end(),
                     [&](const Otf2Location &l) { return l.rank == r && l.thread == 0; }))
      locations.push_back(Otf2Location{r, 0, otf2_location(r, 0, trace.nranks()), 0});
  std::sort(locations.begin(), locations.end(),
            [](const Otf2Location &x, const Otf2Location &y) { return x.ref < y.ref; });
  for (const Otf2Location &l : locations)
    otf2_check(OTF2_GlobalDefWriter_WriteLocation(
                   g, l.ref,
                   s(l.thread == 0 ? "Master thread" : "Thread " + std::to_string(l.thread)),
                   OTF2_LOCATION_TYPE_CPU_THREAD, l.events, l.rank),
               "writing a location");
  Groups groups(g, s);
  std::vector<uint64_t> world(trace.nranks());
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    world[r] = otf2_location(r, 0, trace.nranks());
  groups.write(OTF2_GROUP_TYPE_COMM_LOCATIONS, world);
  std::vector<uint64_t> ranks(trace.nranks());
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    ranks[r] = r;
  const OTF2_GroupRef world_group = groups.write(OTF2_GROUP_TYPE_COMM_GROUP, ranks);
  const OTF2_GroupRef self_group = groups.write(OTF2_GROUP_TYPE_COMM_SELF, {});
  otf2_check(OTF2_GlobalDefWriter_WriteComm(g, kOtf2CommWorld, s("MPI_COMM_WORLD"), world_group,
                                            OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
             "writing MPI_COMM_WORLD");
  otf2_check(OTF2_GlobalDefWriter_WriteComm(g, kOtf2CommSelf, s("MPI_COMM_SELF"), self_group,
                                            OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
             "writing MPI_COMM_SELF");
  for (size_t i = 0; i < instances.size(); ++i) {
    const CommInstance &c = instances[i];
    const OTF2_CommRef ref = comm_ref_of_instance(i);
    if (c.inter)
      otf2_check(OTF2_GlobalDefWriter_WriteInterComm(g, ref, s(comm_name(c)), groups.of(c.members),
                                                     groups.of(c.remote_members),
                                                     OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
                 "writing an intercommunicator");
    else
      otf2_check(OTF2_GlobalDefWriter_WriteComm(g, ref, s(comm_name(c)), groups.of(c.members),
                                                OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
                 "writing a communicator");
  }
  otf2_check(OTF2_Archive_CloseGlobalDefWriter(archive, g), "closing the global definitions");
}

} // namespace pilgrim::exporter
