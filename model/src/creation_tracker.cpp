#include "pilgrim/creation_tracker.h"

#include "pilgrim/grammar_walker.h"
#include "pilgrim/saturating.h"
#include "pilgrim/value_codes.h"

namespace pilgrim {

namespace {

constexpr uint64_t kWorldIndex = 0; // kPredefinedCommNames
constexpr uint64_t kSelfIndex = 1;

bool same_grid(const CartGrid &a, const CartGrid &b) { return a == b || (a && b && *a == *b); }

bool creates_something(const FunctionInfo &f) {
  for (uint8_t i = 0; i < f.nparams; ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role == Role::Handle && p.action == HandleAction::Create &&
        (p.handle_kind == HandleKind::Comm || p.handle_kind == HandleKind::Win ||
         p.handle_kind == HandleKind::Request))
      return true;
  }
  return false;
}

// The handle code of the call's first communicator parameter that it does
// not create; false when it has none.
bool first_comm(const DecodedCall &call, uint64_t &code) {
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams; ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Handle || p.handle_kind != HandleKind::Comm ||
        p.action == HandleAction::Create)
      continue;
    const DecodedValue *v = call.params[i].any();
    if (!v || v->null || v->elements.size() != 1)
      return false;
    code = v->elements[0].code;
    return true;
  }
  return false;
}

} // namespace

std::vector<uint64_t> created_ids(const DecodedCall &call, HandleKind kind) {
  std::vector<uint64_t> ids;
  if (!call.function)
    return ids;
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams && i < call.params.size(); ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Handle || p.handle_kind != kind || p.action != HandleAction::Create ||
        !call.params[i].has_out)
      continue;
    for (const DecodedElement &e : call.params[i].out.elements) {
      const HandleCode h = decode_handle_code(e.code);
      if (h.kind == HandleCode::User)
        ids.push_back(h.index);
    }
  }
  return ids;
}

std::map<uint64_t, uint64_t>
comm_creations(const std::vector<DecodedCall> &calls,
               const std::vector<std::pair<uint64_t, uint64_t>> &terminal_counts) {
  std::map<uint64_t, uint64_t> out;
  for (const auto &tc : terminal_counts) {
    if (tc.first >= calls.size() || !calls[tc.first].function ||
        !creates_something(*calls[tc.first].function))
      continue;
    for (uint64_t u : created_ids(calls[tc.first], HandleKind::Comm))
      out[u] = sat_add(out[u], tc.second);
  }
  return out;
}

CreationTracker::CreationTracker(int64_t world_rank, uint16_t format_version,
                                 const std::vector<CommInfo> &table,
                                 const std::map<uint64_t, uint64_t> &creations)
    : world_rank_(world_rank), format_version_(format_version) {
  for (const CommInfo &c : table)
    comms_[c.comm_id].entries.push_back(c);
  for (const auto &kv : creations)
    comms_[kv.first];
  for (auto &kv : comms_) {
    CommSlot &s = kv.second;
    const auto it = creations.find(kv.first);
    const uint64_t n = it == creations.end() ? 0 : it->second;
    s.consistent = s.entries.size() >= n && s.entries.size() - n <= 1;
    s.offset = s.consistent ? s.entries.size() - n : 0;
  }
}

CreationTracker CreationTracker::for_rank(const Trace &trace, uint32_t rank,
                                          const std::vector<DecodedCall> &calls) {
  const RankView v = trace.rank(rank);
  return CreationTracker(rank, trace.header.version, *v.comms,
                         comm_creations(calls, terminal_counts(*v.rules, v.root)));
}

const CommInfo *CreationTracker::entry(const CommSlot &s) const {
  if (!s.consistent)
    return nullptr;
  // The k-th creation (k >= 1) selects entry k - 1 + offset; before the
  // first, entry 0 applies only when it predates the walk (offset 1).
  const uint64_t k = sat_add(s.created, s.offset);
  if (k == 0 || k > s.entries.size())
    return nullptr;
  return &s.entries[k - 1];
}

int64_t CreationTracker::comm_entry_index(uint64_t id) const {
  const auto it = comms_.find(id);
  if (it == comms_.end())
    return -1;
  const CommInfo *e = entry(it->second);
  return e ? e - it->second.entries.data() : -1;
}

RankBase CreationTracker::comm(uint64_t id) const {
  const auto it = comms_.find(id);
  if (it == comms_.end())
    return {};
  const CommInfo *e = entry(it->second);
  if (!e)
    return {};
  return RankBase{e->rank, it->second.grid.get()};
}

int64_t CreationTracker::window_rank(uint64_t id) const {
  const auto it = windows_.find(id);
  return it == windows_.end() ? -1 : it->second;
}

RankBase CreationTracker::request(uint64_t code) const {
  const auto it = requests_.find(code);
  if (it == requests_.end())
    return {};
  return RankBase{it->second.rank, it->second.grid.get()};
}

CreationTracker::Base CreationTracker::base_of(uint64_t handle_code) const {
  const HandleCode h = decode_handle_code(handle_code);
  if (h.kind == HandleCode::Predefined)
    return Base{h.index == kWorldIndex ? world_rank_ : h.index == kSelfIndex ? 0 : -1, nullptr};
  if (h.kind != HandleCode::User)
    return {};
  const auto it = comms_.find(h.index);
  if (it == comms_.end())
    return {};
  const CommInfo *e = entry(it->second);
  return e ? Base{e->rank, it->second.grid} : Base{};
}

void CreationTracker::apply(const DecodedCall &call, uint64_t times) {
  if (!call.function || times == 0)
    return;
  if (datatypes_.apply(call))
    ++version_;
  if (!creates_something(*call.function))
    return;
  // Everything the call's creations take from other ids is read before any
  // of them changes.
  uint64_t code = 0;
  const Base base = first_comm(call, code) ? base_of(code) : Base{};
  CartGrid parent_grid;
  if (inherits_grid(call, code))
    parent_grid = base_of(code).grid;
  const CartGrid grid = created_grid(call, parent_grid);

  for (uint64_t u : created_ids(call, HandleKind::Comm)) {
    CommSlot &s = comms_[u];
    const CommInfo *before = entry(s);
    const CartGrid old_grid = s.grid;
    s.created = sat_add(s.created, times);
    s.grid = grid;
    const CommInfo *after = entry(s);
    const bool same = before == after ||
                      (before && after && before->rank == after->rank &&
                       before->size == after->size && before->remote_size == after->remote_size);
    if (!same || !same_grid(old_grid, grid))
      ++version_;
    creations_ = sat_add(creations_, times);
  }
  for (uint64_t w : created_ids(call, HandleKind::Win)) {
    auto it = windows_.find(w);
    if (it == windows_.end()) {
      windows_.emplace(w, base.rank);
      ++version_;
    } else if (it->second != base.rank) {
      it->second = base.rank;
      ++version_;
    }
  }
  const FunctionInfo &f = *call.function;
  for (uint8_t i = 0; i < f.nparams && i < call.params.size(); ++i) {
    const ParamInfo &p = f.params[i];
    if (p.role != Role::Handle || p.handle_kind != HandleKind::Request ||
        p.action != HandleAction::Create || !call.params[i].has_out)
      continue;
    for (const DecodedElement &e : call.params[i].out.elements) {
      if (decode_handle_code(e.code).kind != HandleCode::User)
        continue;
      auto it = requests_.find(e.code);
      if (it == requests_.end()) {
        requests_.emplace(e.code, base);
        ++version_;
      } else if (it->second.rank != base.rank || !same_grid(it->second.grid, base.grid)) {
        it->second = base;
        ++version_;
      }
    }
  }
}

} // namespace pilgrim
