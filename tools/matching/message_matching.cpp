#include "message_matching.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "collective_agreement.h"
#include "comm_resolver.h"
#include "handle_lifetimes.h"
#include "p2p_operations.h"
#include "pilgrim/reader.h"

namespace pilgrim {

bool MatchResult::has_errors() const {
  for (const MatchFinding &f : findings)
    if (f.severity == MatchFinding::Severity::Error)
      return true;
  return false;
}

namespace {

using Severity = MatchFinding::Severity;

// Both observers, for one walk.
class CheckObservers : public TraceWalkObserver {
public:
  explicit CheckObservers(const CommDirectory &comms) : collectives(comms) {}
  void call(const Call &call, CallPlace where, const CommResolver &resolver) override {
    collectives.call(call, where, resolver);
    handles.call(call, where, resolver);
  }
  void rank_done(uint32_t rank) override {
    collectives.rank_done(rank);
    handles.rank_done(rank);
  }
  CollectiveAgreement collectives;
  HandleLifetimes handles;
};

std::string tag_text(const P2pOp &op) {
  return op.any_tag ? "MPI_ANY_TAG" : "tag " + std::to_string(op.tag);
}

std::string place_text(CallPlace p) {
  return "rank " + std::to_string(p.rank) + "'s call " + std::to_string(p.index);
}

bool accepts(const P2pOp &recv, const P2pOp &send) { return recv.any_tag || recv.tag == send.tag; }

// An operation as findings name it: "MPI_Send to rank 1 (tag 7, MPI_COMM_WORLD)".
std::string describe(const P2pOp &op, bool send, const CommDirectory &comms) {
  std::string s = std::string(op.function) + (send ? " to " : " from ");
  if (op.wildcard)
    s += "MPI_ANY_SOURCE";
  if (op.peer >= 0)
    s += (op.wildcard ? " (rank " : "rank ") + std::to_string(op.peer) + (op.wildcard ? ")" : "");
  else if (!op.wildcard)
    s += "rank " + std::to_string(op.peer_in_comm) + " of the communicator";
  return s + " (" + tag_text(op) + ", " + comms.name(op.comm) + ")";
}

struct Channel {
  std::vector<size_t> sends, recvs; // indices, in posting order
};

class Matcher {
public:
  Matcher(const CommDirectory &comms, MatchResult &result) : comms_(comms), result_(result) {}
  void add(RankOperations &&ops);
  void match();

private:
  void error(CallPlace where, std::string what) {
    result_.findings.push_back({Severity::Error, where, std::move(what)});
  }
  void warning(CallPlace where, std::string what) {
    result_.findings.push_back({Severity::Warning, where, std::move(what)});
  }
  void matched(size_t s, size_t r);

  const CommDirectory &comms_;
  MatchResult &result_;
  std::vector<P2pOp> sends_, recvs_;
  std::vector<bool> send_used_, recv_used_;
  std::map<std::tuple<uint64_t, int64_t, int64_t>, Channel> channels_; // (comm, sender, receiver)
  std::vector<size_t> unresolved_;                                     // wildcard receives
};

void Matcher::add(RankOperations &&ops) {
  for (MatchFinding &f : ops.findings)
    result_.findings.push_back(std::move(f));
  std::map<uint64_t, bool> told; // communicators already reported unknown on this rank
  auto usable = [&](const P2pOp &op, bool send) {
    if (op.cancelled)
      return false; // a cancelled operation is no message
    if (op.peer >= 0 || (op.wildcard && !send && op.peer_in_comm < 0 && op.comm != kCommUnknown))
      return true; // a channel, or a wildcard receive whose sender was not recorded
    if (!told[op.comm]) {
      told[op.comm] = true;
      warning(op.post, describe(op, send, comms_) +
                           ": its peer's world rank is unknown (the trace does not record this "
                           "communicator's members), so its messages are not checked");
    }
    return false;
  };
  for (P2pOp &op : ops.sends)
    if (usable(op, true)) {
      channels_[{op.comm, op.post.rank, op.peer}].sends.push_back(sends_.size());
      sends_.push_back(op);
    }
  for (P2pOp &op : ops.recvs)
    if (usable(op, false)) {
      if (op.peer >= 0)
        channels_[{op.comm, op.peer, op.post.rank}].recvs.push_back(recvs_.size());
      else
        unresolved_.push_back(recvs_.size());
      recvs_.push_back(op);
    }
}

void Matcher::matched(size_t s, size_t r) {
  send_used_[s] = recv_used_[r] = true;
  const P2pOp &send = sends_[s];
  const P2pOp &recv = recvs_[r];
  MatchedMessage m;
  m.send = send.post;
  m.send_complete = send.complete;
  m.recv = recv.post;
  m.recv_complete = recv.complete;
  m.comm = send.comm;
  m.tag = send.tag;
  m.bytes = send.bytes;
  result_.messages.push_back(m);
  if (send.bytes >= 0 && recv.bytes >= 0 && send.bytes > recv.bytes)
    error(recv.post, describe(recv, false, comms_) + ": its buffer holds " +
                         std::to_string(recv.bytes) + " bytes, too small for the " +
                         std::to_string(send.bytes) + "-byte message of " + send.function + " at " +
                         place_text(send.post) + " (size mismatch)");
}

void Matcher::match() {
  send_used_.assign(sends_.size(), false);
  recv_used_.assign(recvs_.size(), false);
  // Non-overtaking: per channel, each receive in posting order takes the
  // earliest unmatched send whose tag it accepts.
  for (auto &[key, ch] : channels_) {
    (void)key;
    std::sort(ch.recvs.begin(), ch.recvs.end(),
              [&](size_t a, size_t b) { return recvs_[a].order < recvs_[b].order; });
    size_t head = 0;
    for (size_t r : ch.recvs) {
      while (head < ch.sends.size() && send_used_[ch.sends[head]])
        ++head;
      for (size_t k = head; k < ch.sends.size(); ++k)
        if (!send_used_[ch.sends[k]] && accepts(recvs_[r], sends_[ch.sends[k]])) {
          matched(ch.sends[k], r);
          break;
        }
    }
  }
  // Leftover sends, by (sender, receiver), to explain the leftover receives.
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> left;
  for (size_t s = 0; s < sends_.size(); ++s)
    if (!send_used_[s])
      left[{static_cast<int64_t>(sends_[s].post.rank), sends_[s].peer}].push_back(s);
  // Wildcard receives whose sender was not recorded take what is left for
  // them on their communicator, unmatched (CHECK.md: never guessed).
  for (size_t r : unresolved_) {
    const P2pOp &recv = recvs_[r];
    warning(recv.post, describe(recv, false, comms_) +
                           ": its sender was not recorded (status ignored), so its message is "
                           "not matched");
    for (auto &[pair, list] : left) {
      if (pair.second != static_cast<int64_t>(recv.post.rank))
        continue;
      for (size_t s : list)
        if (!send_used_[s] && sends_[s].comm == recv.comm && accepts(recv, sends_[s])) {
          send_used_[s] = recv_used_[r] = true;
          break;
        }
      if (recv_used_[r])
        break;
    }
  }
  for (size_t r = 0; r < recvs_.size(); ++r) {
    if (recv_used_[r])
      continue;
    const P2pOp &recv = recvs_[r];
    const std::string what = describe(recv, false, comms_) + " has no matching send";
    const auto it = left.find({recv.peer, static_cast<int64_t>(recv.post.rank)});
    size_t found = SIZE_MAX;
    bool same_comm = false;
    if (it != left.end()) {
      for (size_t s : it->second)
        if (!send_used_[s] && sends_[s].comm == recv.comm) {
          found = s;
          same_comm = true;
          break;
        }
      if (found == SIZE_MAX)
        for (size_t s : it->second)
          if (!send_used_[s]) {
            found = s;
            break;
          }
    }
    if (found == SIZE_MAX) {
      error(recv.post, what);
      continue;
    }
    const P2pOp &send = sends_[found];
    send_used_[found] = true; // explained here, not reported twice
    if (same_comm)
      error(recv.post, what + ": " + send.function + " at " + place_text(send.post) + " sends it " +
                           tag_text(send) + " (tag mismatch)");
    else
      error(recv.post, what + ": " + send.function + " at " + place_text(send.post) +
                           " sends it on " + comms_.name(send.comm) + " (communicator mismatch)");
  }
  for (size_t s = 0; s < sends_.size(); ++s)
    if (!send_used_[s])
      error(sends_[s].post, describe(sends_[s], true, comms_) + " has no matching receive");
}

} // namespace

MatchResult match_messages(const reader::TraceFile &trace, const MatchOptions &options) {
  MatchResult result;
  const CommDirectory comms(trace);
  CheckObservers observers(comms);
  Matcher matcher(comms, result);
  for (uint32_t r = 0; r < trace.nranks(); ++r)
    matcher.add(collect_operations(trace, comms, r, options.full_check,
                                   options.full_check ? &observers : nullptr));
  matcher.match();
  if (options.full_check) {
    observers.collectives.finish();
    for (MatchFinding &f : observers.collectives.findings)
      result.findings.push_back(std::move(f));
    for (MatchFinding &f : observers.handles.findings)
      result.findings.push_back(std::move(f));
  }
  std::sort(result.findings.begin(), result.findings.end(),
            [](const MatchFinding &a, const MatchFinding &b) {
              return std::tie(a.where.rank, a.where.index, a.severity, a.what) <
                     std::tie(b.where.rank, b.where.index, b.severity, b.what);
            });
  return result;
}

} // namespace pilgrim
