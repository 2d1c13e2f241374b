#include "otf2_communicators.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "pilgrim/creation_tracker.h"

namespace pilgrim::exporter {

namespace {

bool holds(const std::vector<int64_t> &members, int32_t at, uint32_t rank) {
  return at >= 0 && static_cast<size_t>(at) < members.size() &&
         members[static_cast<size_t>(at)] == static_cast<int64_t>(rank);
}

} // namespace

RankCommunicators::RankCommunicators(const reader::TraceFile &trace,
                                     const std::vector<CommInstance> &instances, uint32_t rank) {
  // How many times the rank's walk creates each id: from its grammar's
  // counts of each CST entry, never by walking.
  std::map<uint64_t, uint64_t> creations;
  for (const auto &[entry, count] : trace.entry_counts(trace.grammar_of(rank))) {
    const DecodedCall *coded = trace.cst_call(entry).coded;
    if (!coded)
      continue;
    for (uint64_t id : created_ids(*coded, HandleKind::Comm))
      creations[id] += count;
  }
  // Entry k of an id with given groups is that id's k-th instance with
  // those groups (communicator_instances.h), the one holding this rank at
  // the entry's rank.
  std::map<std::tuple<uint64_t, uint32_t, uint32_t>, uint32_t> seen;
  for (const CommInfo &c : trace.comm_table(rank)) {
    const bool inter = c.remote_size >= 0;
    const uint32_t a = inter ? std::min(c.group, c.remote_group) : c.group;
    const uint32_t b = inter ? std::max(c.group, c.remote_group) : 0;
    const uint32_t k = seen[{c.comm_id, a, b}]++;
    OTF2_CommRef ref = OTF2_UNDEFINED_COMM;
    for (size_t i = 0; i < instances.size(); ++i) {
      const CommInstance &in = instances[i];
      if (in.comm_id == c.comm_id && in.occurrence == k &&
          (holds(in.members, c.rank, rank) ||
           (in.inter && holds(in.remote_members, c.rank, rank)))) {
        ref = comm_ref_of_instance(i);
        break;
      }
    }
    slots_[c.comm_id].refs.push_back(ref);
  }
  for (auto &[id, slot] : slots_) {
    const auto it = creations.find(id);
    const uint64_t made = it == creations.end() ? 0 : it->second;
    if (slot.refs.size() == made)
      slot.offset = 0;
    else if (slot.refs.size() == made + 1)
      slot.offset = 1;
    else
      slot.consistent = false;
  }
}

OTF2_CommRef RankCommunicators::comm(const HandleRef &handle) const {
  if (handle.predefined() && handle.name) {
    const std::string_view name = handle.name;
    if (name == "MPI_COMM_WORLD")
      return kCommWorld;
    if (name == "MPI_COMM_SELF")
      return kCommSelf;
    return OTF2_UNDEFINED_COMM;
  }
  if (!handle.user())
    return OTF2_UNDEFINED_COMM;
  const auto it = slots_.find(handle.id);
  if (it == slots_.end() || !it->second.consistent)
    return OTF2_UNDEFINED_COMM;
  const Slot &s = it->second;
  const uint64_t at = s.created + s.offset;
  if (at == 0 || at > s.refs.size())
    return OTF2_UNDEFINED_COMM;
  return s.refs[at - 1];
}

void RankCommunicators::apply(const Call &call) {
  if (!call.coded)
    return;
  // Each distinct call's created ids once (calls point into the CST).
  auto known = created_.find(call.coded);
  if (known == created_.end())
    known = created_.emplace(call.coded, created_ids(*call.coded, HandleKind::Comm)).first;
  for (uint64_t id : known->second) {
    const auto it = slots_.find(id);
    if (it != slots_.end())
      ++it->second.created;
  }
}

} // namespace pilgrim::exporter
