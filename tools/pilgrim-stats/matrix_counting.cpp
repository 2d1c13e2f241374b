#include "matrix_counting.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>

#include "matrix_patterns.h"
#include "pilgrim/communicator_instances.h"
#include "pilgrim/creation_tracker.h"
#include "pilgrim/group_hash.h"
#include "pilgrim/saturating.h"

namespace pilgrim::stats {

namespace {

constexpr int32_t kWorld = 0, kSelf = 1, kFirstInstance = 2;

uint32_t group_hash(const std::vector<int64_t> &members) {
  GroupHash h(static_cast<uint32_t>(members.size()));
  for (int64_t m : members)
    h.add(m < 0 ? kOutsideWorld : static_cast<uint32_t>(m));
  return h.value();
}

// An instance as a rank's entries name it: its id, its groups' hashes (an
// intercommunicator's as an unordered pair) and its occurrence.
using InstanceKey = std::tuple<uint64_t, uint32_t, uint32_t, uint32_t>;

InstanceKey key_of(uint64_t id, uint32_t group, uint32_t remote_group, uint32_t occurrence) {
  if (remote_group != 0 && remote_group < group)
    std::swap(group, remote_group);
  return {id, group, remote_group, occurrence};
}

// A group's world ranks, "[3 2 1 0]", the first `limit` of them then
// "... (N ranks)".
std::string members_text(const std::vector<int64_t> &members, size_t limit) {
  std::string s = "[";
  for (size_t i = 0; i < members.size() && i < limit; ++i)
    s += (i ? " " : "") + (members[i] < 0 ? std::string("?") : std::to_string(members[i]));
  if (members.size() > limit)
    s += " ... (" + std::to_string(members.size()) + " ranks)";
  return s + "]";
}

// Each instance's name: as pilgrim-dump --comms names it ("comm#3",
// "comm#3 (instance 2)") and its members, which tell apart the instances
// that share an id (disjoint splits, ids reused with other members): the
// first 4, or all where that is not enough.
std::vector<std::string> instance_names(const std::vector<CommInstance> &instances) {
  auto name = [](const CommInstance &c, size_t limit) {
    std::string n = "comm#" + std::to_string(c.comm_id);
    if (c.occurrence)
      n += " (instance " + std::to_string(c.occurrence + 1) + ")";
    n += " " + members_text(c.members, limit);
    if (c.inter)
      n += " and " + members_text(c.remote_members, limit);
    return n;
  };
  std::vector<std::string> out;
  std::map<std::string, int> uses;
  for (const CommInstance &c : instances)
    ++uses[out.emplace_back(name(c, 4))];
  for (size_t i = 0; i < instances.size(); ++i)
    if (uses[out[i]] > 1)
      out[i] = name(instances[i], SIZE_MAX);
  return out;
}

// A communicator as one rank sees it: which of the matrix's communicators it
// is, and the world ranks of its local group and of the group its peers are
// in; null groups when unknown.
struct CommView {
  int32_t index = -1;
  const std::vector<int64_t> *local = nullptr;
  const std::vector<int64_t> *peers = nullptr;
  bool inter = false;
};

class Counter {
public:
  explicit Counter(const reader::TraceFile &file) : file_(file) {
    world_.resize(file.nranks());
    for (uint32_t r = 0; r < file.nranks(); ++r)
      world_[r] = r;
    instances_ = file.communicators();
    for (size_t i = 0; i < instances_.size(); ++i) {
      const CommInstance &c = instances_[i];
      const uint32_t a = group_hash(c.members), b = c.inter ? group_hash(c.remote_members) : 0;
      by_key_[key_of(c.comm_id, a, b, c.occurrence)] = static_cast<int32_t>(i);
      local_hash_.push_back(a);
    }
    m_.nranks = file.nranks();
    m_.comm_names = {"MPI_COMM_WORLD", "MPI_COMM_SELF"};
    const std::vector<std::string> names = instance_names(instances_);
    m_.comm_names.insert(m_.comm_names.end(), names.begin(), names.end());
    for (auto &v : m_.by_comm)
      v.resize(m_.comm_names.size());
  }

  void count_rank(uint32_t r);
  CommunicationMatrix take() { return std::move(m_); }

private:
  struct Persistent {
    MatrixKind kind;
    int32_t comm;
    std::vector<std::pair<int64_t, Flow>> flows; // (world receiver or -1, flow)
  };

  const std::map<uint64_t, uint64_t> &creations(uint32_t grammar);
  CommView view(uint32_t r, const Call &call, const CreationTracker &tracker);
  void add(uint32_t r, MatrixKind kind, int32_t comm, int64_t receiver, const Flow &f,
           uint64_t times);
  void unknown_comm(MatrixKind kind, uint64_t times) {
    uint64_t &n = m_.unknown_comm_calls[static_cast<int>(kind)];
    n = sat_add(n, times);
  }

  const reader::TraceFile &file_;
  std::vector<int64_t> world_;
  std::vector<int64_t> self_; // MPI_COMM_SELF of the rank being counted
  std::vector<CommInstance> instances_;
  std::vector<uint32_t> local_hash_;
  std::map<InstanceKey, int32_t> by_key_;
  std::map<uint32_t, std::map<uint64_t, uint64_t>> creations_; // per grammar
  // The rank being counted: per user communicator id, the instance of each
  // of its COMMS entries with that id, in table order (-1 unknown).
  std::unordered_map<uint64_t, std::vector<int32_t>> entry_instances_;
  CommunicationMatrix m_;
};

// How many times a rank of `grammar` creates each user communicator id: the
// creations each CST entry makes times how often the grammar makes it.
const std::map<uint64_t, uint64_t> &Counter::creations(uint32_t grammar) {
  auto it = creations_.find(grammar);
  if (it != creations_.end())
    return it->second;
  std::map<uint64_t, uint64_t> &out = creations_[grammar];
  for (const auto &ec : file_.entry_counts(grammar)) {
    const Call &call = file_.cst_call(ec.first);
    if (!call.coded || !call.function)
      continue;
    for (uint64_t u : created_ids(*call.coded, HandleKind::Comm))
      out[u] = sat_add(out[u], ec.second);
  }
  return out;
}

CommView Counter::view(uint32_t r, const Call &call, const CreationTracker &tracker) {
  CommView v;
  const CallArg *a = call.arg("comm");
  const CallValue *cv = a ? a->any() : nullptr;
  if (!cv || cv->null || cv->elements.size() != 1)
    return v;
  const HandleRef &h = cv->elements[0].handle;
  if (h.predefined() && h.name && std::string_view(h.name) == "MPI_COMM_WORLD") {
    v.index = kWorld;
    v.local = v.peers = &world_;
    return v;
  }
  if (h.predefined() && h.name && std::string_view(h.name) == "MPI_COMM_SELF") {
    v.index = kSelf;
    self_.assign(1, r);
    v.local = v.peers = &self_;
    return v;
  }
  if (!h.user())
    return v;
  const auto it = entry_instances_.find(h.id);
  const int64_t k = tracker.comm_entry_index(h.id);
  if (it == entry_instances_.end() || k < 0 || static_cast<size_t>(k) >= it->second.size() ||
      it->second[static_cast<size_t>(k)] < 0)
    return v;
  const int32_t i = it->second[static_cast<size_t>(k)];
  const CommInstance &c = instances_[static_cast<size_t>(i)];
  v.index = kFirstInstance + i;
  v.inter = c.inter;
  // An intercommunicator's local group is the one that holds this rank's entry.
  const std::vector<CommInfo> &table = file_.comm_table(r);
  int64_t seen = -1;
  for (const CommInfo &e : table)
    if (e.comm_id == h.id && ++seen == k) {
      const bool first = !c.inter || e.group == local_hash_[static_cast<size_t>(i)];
      v.local = first ? &c.members : &c.remote_members;
      v.peers = c.inter ? (first ? &c.remote_members : &c.members) : v.local;
      break;
    }
  return v;
}

void Counter::add(uint32_t r, MatrixKind kind, int32_t comm, int64_t receiver, const Flow &f,
                  uint64_t times) {
  const int k = static_cast<int>(kind);
  if (comm < 0 || receiver < 0 || receiver >= static_cast<int64_t>(m_.nranks)) {
    m_.unresolved[k] = sat_add(m_.unresolved[k], times);
    return;
  }
  if (!f.sized)
    m_.unsized[k] = sat_add(m_.unsized[k], times);
  m_.by_comm[k][static_cast<size_t>(comm)].add(r, static_cast<uint32_t>(receiver), times,
                                               sat_mul(f.bytes, times));
}

void Counter::count_rank(uint32_t r) {
  // Each of this rank's COMMS entries, as an instance: its occurrence is the
  // number of the rank's earlier entries with the same id and groups.
  entry_instances_.clear();
  std::map<InstanceKey, uint32_t> seen;
  for (const CommInfo &e : file_.comm_table(r)) {
    const InstanceKey partial = key_of(e.comm_id, e.group, e.remote_group, 0);
    const uint32_t occurrence = seen[partial]++;
    const auto it = e.group == 0
                        ? by_key_.end()
                        : by_key_.find(key_of(e.comm_id, e.group, e.remote_group, occurrence));
    entry_instances_[e.comm_id].push_back(it == by_key_.end() ? -1 : it->second);
  }
  CreationTracker tracker(r, file_.header().version, file_.comm_table(r),
                          creations(file_.grammar_of(r)));
  std::unordered_map<uint64_t, Persistent> persistent; // by request id
  file_.visit_calls(r, [&](uint64_t, const Call &call, uint64_t times) {
    if (has_flows(call)) {
      const CommView v = view(r, call, tracker);
      CommPosition where;
      where.inter = v.inter;
      if (v.local && v.peers) {
        const auto me = std::find(v.local->begin(), v.local->end(), static_cast<int64_t>(r));
        where.caller = me == v.local->end() ? -1 : me - v.local->begin();
        where.peers = static_cast<int64_t>(v.peers->size());
      }
      const CallFlows cf = call_flows(call, where);
      auto receiver = [&](const Flow &f) -> int64_t {
        return v.peers && f.peer >= 0 && f.peer < static_cast<int64_t>(v.peers->size())
                   ? (*v.peers)[static_cast<size_t>(f.peer)]
                   : -1;
      };
      switch (cf.action) {
      case CallFlows::Action::Count:
        if (v.index < 0) {
          unknown_comm(cf.kind, times);
          break;
        }
        for (const Flow &f : cf.flows)
          add(r, cf.kind, v.index, receiver(f), f, times);
        break;
      case CallFlows::Action::Persist: {
        Persistent &p = persistent[cf.request];
        p = Persistent{cf.kind, v.index, {}};
        for (const Flow &f : cf.flows)
          p.flows.emplace_back(receiver(f), f);
        break;
      }
      case CallFlows::Action::Start:
        for (uint64_t req : cf.started) {
          const auto it = persistent.find(req);
          if (it == persistent.end())
            continue; // a receive's request, or one the trace never made
          if (it->second.comm < 0)
            unknown_comm(it->second.kind, times);
          else
            for (const auto &rf : it->second.flows)
              add(r, it->second.kind, it->second.comm, rf.first, rf.second, times);
        }
        break;
      case CallFlows::Action::Uncounted: {
        uint64_t &n = m_.uncounted_calls[call.name()];
        n = sat_add(n, times);
        break;
      }
      case CallFlows::Action::None:
        break;
      }
    }
    if (call.coded && call.function)
      tracker.apply(*call.coded, times);
  });
}

} // namespace

CommunicationMatrix communication_matrix(const TraceInput &input) {
  Counter counter(input.file);
  for (uint32_t r = input.first_rank; r < input.end_rank; ++r)
    counter.count_rank(r);
  return counter.take();
}

} // namespace pilgrim::stats
