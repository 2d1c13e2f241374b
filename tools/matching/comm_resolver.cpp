#include "comm_resolver.h"

#include <algorithm>
#include <tuple>

#include "pilgrim/creation_tracker.h"
#include "pilgrim/reader.h"

namespace pilgrim {

namespace {

int64_t at(const std::vector<int64_t> &group, int64_t rank) {
  return rank >= 0 && static_cast<size_t>(rank) < group.size() ? group[static_cast<size_t>(rank)]
                                                               : -1;
}

bool holds(const std::vector<int64_t> &group, int64_t world) {
  return std::find(group.begin(), group.end(), world) != group.end();
}

} // namespace

CommDirectory::CommDirectory(const reader::TraceFile &trace)
    : instances_(trace.communicators()), nranks_(trace.nranks()) {
  for (const CommInstance &in : instances_)
    hashes_.emplace_back(group_hash_of(in.members),
                         in.inter ? group_hash_of(in.remote_members) : 0);
}

uint64_t CommDirectory::instance_of(const CommInfo &c, uint32_t occurrence, uint32_t rank) const {
  for (size_t i = 0; i < instances_.size(); ++i) {
    const CommInstance &in = instances_[i];
    if (in.comm_id != c.comm_id || in.occurrence != occurrence)
      continue;
    // The rank's own group: the one with its hash that holds it at its rank.
    if ((at(in.members, c.rank) == rank && hashes_[i].first == c.group) ||
        (in.inter && at(in.remote_members, c.rank) == rank && hashes_[i].second == c.group))
      return i;
  }
  return kCommUnknown;
}

std::string CommDirectory::name(uint64_t comm) const {
  if (comm == kCommWorld)
    return "MPI_COMM_WORLD";
  if (comm == kCommSelf)
    return "MPI_COMM_SELF";
  if (comm < instances_.size()) {
    const CommInstance &in = instances_[comm];
    std::string s = "comm#" + std::to_string(in.comm_id);
    if (in.occurrence)
      s += " (instance " + std::to_string(in.occurrence + 1) + ")";
    return s;
  }
  return "an unknown communicator";
}

bool CommDirectory::inter(uint64_t comm) const {
  return comm < instances_.size() && instances_[comm].inter;
}

int64_t CommDirectory::peer_world(uint64_t comm, int64_t caller, int64_t peer) const {
  if (peer < 0)
    return -1;
  if (comm == kCommWorld)
    return peer < static_cast<int64_t>(nranks_) ? peer : -1;
  if (comm == kCommSelf)
    return peer == 0 ? caller : -1;
  if (comm >= instances_.size())
    return -1;
  const CommInstance &in = instances_[comm];
  if (!in.inter)
    return at(in.members, peer);
  return holds(in.members, caller) ? at(in.remote_members, peer) : at(in.members, peer);
}

std::vector<int64_t> CommDirectory::local_group(uint64_t comm, int64_t caller) const {
  if (comm == kCommWorld) {
    std::vector<int64_t> all(nranks_);
    for (uint32_t r = 0; r < nranks_; ++r)
      all[r] = r;
    return all;
  }
  if (comm == kCommSelf)
    return {caller};
  if (comm >= instances_.size())
    return {};
  const CommInstance &in = instances_[comm];
  return !in.inter || holds(in.members, caller) ? in.members : in.remote_members;
}

CommResolver::CommResolver(const reader::TraceFile &trace, const CommDirectory &directory,
                           uint32_t rank) {
  // Which instance each of the rank's entries is (§7.6.1: the occurrence
  // counts the rank's earlier entries with the same id and groups).
  std::map<std::tuple<uint64_t, uint32_t, uint32_t>, uint32_t> seen;
  for (const CommInfo &c : trace.comm_table(rank)) {
    const bool inter = c.remote_size >= 0;
    const uint32_t a = inter ? std::min(c.group, c.remote_group) : c.group;
    const uint32_t b = inter ? std::max(c.group, c.remote_group) : 0;
    const uint32_t k = seen[std::make_tuple(c.comm_id, a, b)]++;
    slots_[c.comm_id].entries.push_back(c.group ? directory.instance_of(c, k, rank) : kCommUnknown);
  }
  // How often the whole walk creates each id (§7.7), from the grammar's
  // entry counts, without expanding it.
  std::map<uint64_t, uint64_t> creations;
  for (const auto &[entry, count] : trace.entry_counts(trace.grammar_of(rank))) {
    const Call &call = trace.cst_call(entry);
    if (call.coded)
      for (uint64_t u : created_ids(*call.coded, HandleKind::Comm))
        creations[u] += count;
  }
  for (auto &[id, slot] : slots_) {
    const auto it = creations.find(id);
    const uint64_t made = it == creations.end() ? 0 : it->second;
    if (slot.entries.size() == made + 1)
      slot.offset = 1;
    else if (slot.entries.size() != made)
      slot.consistent = false;
  }
}

uint64_t CommResolver::comm(const HandleRef &h) const {
  if (h.predefined() && h.name) {
    const std::string_view name(h.name);
    if (name == "MPI_COMM_WORLD")
      return kCommWorld;
    if (name == "MPI_COMM_SELF")
      return kCommSelf;
    return kCommUnknown;
  }
  if (!h.user())
    return kCommUnknown;
  const auto it = slots_.find(h.id);
  if (it == slots_.end() || !it->second.consistent)
    return kCommUnknown;
  const Slot &s = it->second;
  const uint64_t k = s.created + s.offset; // entries that apply so far
  return k == 0 || k > s.entries.size() ? kCommUnknown : s.entries[k - 1];
}

void CommResolver::applied(const Call &call) {
  if (!call.coded)
    return;
  for (uint64_t u : created_ids(*call.coded, HandleKind::Comm)) {
    const auto it = slots_.find(u);
    if (it != slots_.end())
      ++it->second.created;
  }
}

} // namespace pilgrim
