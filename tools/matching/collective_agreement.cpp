#include "collective_agreement.h"

#include <cctype>
#include <string_view>

#include "pilgrim/collective_call.h"

namespace pilgrim {

namespace {

// The collective (blocking or not) `name` is, without "_c"; empty when it
// is none. Nonblocking ones keep their name: MPI matches MPI_Ibcast only
// with MPI_Ibcast.
std::string collective_name(const char *name) {
  std::string_view n(name ? name : "");
  if (n.size() > 2 && n.substr(n.size() - 2) == "_c")
    n.remove_suffix(2);
  if (is_blocking_collective(n))
    return std::string(n);
  if (n.size() > 6 && n.substr(0, 5) == "MPI_I") { // MPI_Iallreduce -> MPI_Allreduce
    std::string blocking = "MPI_" + std::string(n.substr(5));
    blocking[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(blocking[4])));
    if (is_blocking_collective(blocking))
      return std::string(n);
  }
  return {};
}

std::string at(CallPlace p) {
  return "rank " + std::to_string(p.rank) + "'s call " + std::to_string(p.index);
}

std::string root_text(int64_t root) { return root < 0 ? "none" : std::to_string(root); }

} // namespace

void CollectiveAgreement::call(const Call &call, CallPlace where, const CommResolver &resolver) {
  const std::string name = collective_name(call.name());
  if (name.empty())
    return;
  const CallArg *ca = call.arg("comm");
  const CallValue *cv = ca ? ca->any() : nullptr;
  if (!cv || cv->null || cv->elements.empty())
    return;
  const uint64_t comm = resolver.comm(cv->elements[0].handle);
  if (comm == kCommSelf || comm == kCommUnknown)
    return;
  Collective c{name, -1, where};
  if (!comms_.inter(comm))
    if (const CallArg *ra = call.arg("root"))
      if (const CallValue *rv = ra->any(); rv && !rv->null && !rv->elements.empty())
        c.root = rv->elements[0].rank.rank;
  auto ref = reference_.find(comm);
  if (ref == reference_.end())
    ref = reference_.emplace(comm, Sequence{where.rank, {}}).first;
  Sequence &seq = ref->second;
  if (seq.rank == where.rank) {
    seq.calls.push_back(c);
    return;
  }
  Progress &p = progress_[{comm, where.rank}];
  if (p.diverged)
    return;
  const uint64_t k = p.next++;
  const std::string on = " on " + comms_.name(comm);
  if (k >= seq.calls.size()) {
    findings.push_back({MatchFinding::Severity::Error, where,
                        name + ": collective " + std::to_string(k + 1) + on +
                            " has no counterpart on rank " + std::to_string(seq.rank) +
                            ", which makes " + std::to_string(seq.calls.size()) +
                            " (ranks disagree on the communicator or the order)"});
    p.diverged = true;
    return;
  }
  const Collective &r = seq.calls[k];
  if (r.function != name) {
    findings.push_back({MatchFinding::Severity::Error, where,
                        name + ": collective " + std::to_string(k + 1) + on + " is " + r.function +
                            " at " + at(r.where) +
                            " (ranks disagree on the order or the communicator)"});
    p.diverged = true;
  } else if (r.root != c.root) {
    findings.push_back({MatchFinding::Severity::Error, where,
                        name + ": collective " + std::to_string(k + 1) + on + " has root " +
                            root_text(c.root) + " where " + at(r.where) + " has root " +
                            root_text(r.root) + " (ranks disagree on the root)"});
    p.diverged = true;
  }
}

void CollectiveAgreement::finish() {
  for (const auto &[comm, seq] : reference_) {
    std::vector<int64_t> members = comms_.local_group(comm, seq.rank);
    if (comms_.inter(comm)) {
      const std::vector<int64_t> &in = comms_.instances()[comm].members;
      const std::vector<int64_t> &out = comms_.instances()[comm].remote_members;
      members = in;
      members.insert(members.end(), out.begin(), out.end());
    }
    for (int64_t w : members) {
      if (w < 0 || w == seq.rank)
        continue;
      const auto it = progress_.find({comm, static_cast<uint32_t>(w)});
      const uint64_t made = it == progress_.end() ? 0 : it->second.next;
      if ((it != progress_.end() && it->second.diverged) || made >= seq.calls.size())
        continue;
      const Collective &r = seq.calls[made];
      findings.push_back({MatchFinding::Severity::Error, r.where,
                          r.function + ": collective " + std::to_string(made + 1) + " on " +
                              comms_.name(comm) + " has no counterpart on rank " +
                              std::to_string(w) + ", which makes " + std::to_string(made) +
                              " (ranks disagree on the communicator or the order)"});
    }
  }
}

} // namespace pilgrim
