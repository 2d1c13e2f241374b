#include "id_agreement.h"

#include "handles/comm_membership.h"
#include "signatures/generated_function_table.h"
#include "common/handle_key.h"
#include "recorder.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace pilgrim::rt {
namespace {

constexpr int kWords = static_cast<int>(AgreedIdSet::kWords);

bool all_taken(const uint64_t *any) {
  for (int w = 0; w < kWords; ++w)
    if (~any[w])
      return false;
  return true;
}

void resolve_hook(uint64_t key) { Recorder::get().agreements.resolve_key(key); }

uint16_t function_id(const char *name) {
  const FunctionInfo *f = generated_function(name);
  return f ? f->id : 0xffff;
}

void put_varint(std::string &s, uint64_t v) {
  while (v >= 0x80) {
    s.push_back(static_cast<char>(static_cast<uint8_t>(v) | 0x80));
    v >>= 7;
  }
  s.push_back(static_cast<char>(v));
}

void set_groups(CommFacts &f, MPI_Comm like) {
  const GroupHashes g = group_hashes(like);
  f.group = g.local;
  f.remote_group = g.remote;
}

} // namespace

void IdAgreements::init(Recorder &r) {
  r_ = &r;
  for (HandleKind k : {HandleKind::Comm, HandleKind::Win, HandleKind::File})
    r.handles[static_cast<int>(k)].set_agreed(k == HandleKind::Comm ? resolve_hook : nullptr);
  PMPI_Comm_rank(r.private_comm(), &world_rank_);
  int *tag_ub = nullptr, flag = 0;
  PMPI_Comm_get_attr(r.private_comm(), MPI_TAG_UB, &tag_ub, &flag);
  if (flag && tag_ub)
    tag_ub_ = *tag_ub;
  id_idup_ = function_id("MPI_Comm_idup");
  id_idup_info_ = function_id("MPI_Comm_idup_with_info");
  for (const char *name : {"MPI_Comm_spawn", "MPI_Comm_spawn_multiple", "MPI_Comm_connect",
                           "MPI_Comm_accept", "MPI_Comm_join"})
    other_job_.push_back(function_id(name));
  // A spawned process: the parent intercommunicator exists from MPI_Init on.
  // Every process of this job starts with no ids in use, so each one chooses
  // the same id alone (the parents' side agrees among the parents).
  MPI_Comm parent = MPI_COMM_NULL;
  PMPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    met_other_job_ = true;
    HandleRegistry &comms = r.handles[static_cast<int>(HandleKind::Comm)];
    const uint64_t enc = comms.bind(handle_key(parent), comms.agreed_ids().choose_alone());
    r.comms.set_encoded_id(parent, enc);
  }
}

uint32_t IdAgreements::agree_now(AgreedIdSet &ids, MPI_Comm over, bool inter, bool locked) {
  AgreedIdSet::Snapshot s;
  ids.hold(s);
  if (locked)
    r_->lock.unlock(); // another thread's calls may be what the others wait for
  uint64_t any[AgreedIdSet::kWords], max_overflow = s.overflow;
  PMPI_Allreduce(s.unavailable, any, kWords, MPI_UINT64_T, MPI_BOR, over);
  if (inter) {
    // `any` is now the other group's OR; reducing it again brings each group its own.
    uint64_t own[AgreedIdSet::kWords];
    PMPI_Allreduce(any, own, kWords, MPI_UINT64_T, MPI_BOR, over);
    for (int w = 0; w < kWords; ++w)
      any[w] |= own[w];
  }
  if (all_taken(any)) { // the same answer on every member: all take this branch
    PMPI_Allreduce(&s.overflow, &max_overflow, 1, MPI_UINT64_T, MPI_MAX, over);
    if (inter) {
      uint64_t own = 0;
      PMPI_Allreduce(&max_overflow, &own, 1, MPI_UINT64_T, MPI_MAX, over);
      if (own > max_overflow)
        max_overflow = own;
    }
  }
  if (locked)
    r_->lock.lock();
  return ids.choose(s, any, max_overflow);
}

bool IdAgreements::within_job(MPI_Comm comm, std::vector<int> &world_ranks) {
  MPI_Group world = MPI_GROUP_NULL;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  bool all = true;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  for (int side = 0; side < (inter ? 2 : 1); ++side) {
    MPI_Group g = MPI_GROUP_NULL;
    if (side == 0)
      PMPI_Comm_group(comm, &g);
    else
      PMPI_Comm_remote_group(comm, &g);
    int n = 0;
    PMPI_Group_size(g, &n);
    std::vector<int> in(static_cast<size_t>(n)), out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      in[static_cast<size_t>(i)] = i;
    PMPI_Group_translate_ranks(g, n, in.data(), world, out.data());
    for (int w : out) {
      if (w == MPI_UNDEFINED)
        all = false;
      else
        world_ranks.push_back(w);
    }
    PMPI_Group_free(&g);
  }
  PMPI_Group_free(&world);
  std::sort(world_ranks.begin(), world_ranks.end());
  return all;
}

uint32_t IdAgreements::agree_in_job(AgreedIdSet &ids, MPI_Comm comm, bool locked) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  std::vector<int> members;
  if (!met_other_job_ || within_job(comm, members))
    return agree_now(ids, comm, inter != 0, locked);
  // Members from another job, perhaps untraced, must not be asked: the
  // members from this job agree among themselves. Every one of them computes
  // the same sorted list, so they build the same group.
  if (members.size() <= 1)
    return ids.choose_alone();
  MPI_Group world = MPI_GROUP_NULL, g = MPI_GROUP_NULL;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  PMPI_Group_incl(world, static_cast<int>(members.size()), members.data(), &g);
  MPI_Comm sub = MPI_COMM_NULL;
  constexpr int kTag = 0x5049; // on the runtime's private communicator only
  PMPI_Comm_create_group(r_->private_comm(), g, kTag, &sub);
  const uint32_t id = agree_now(ids, sub, false, locked);
  PMPI_Comm_free(&sub);
  PMPI_Group_free(&g);
  PMPI_Group_free(&world);
  return id;
}

void IdAgreements::on_create(HandleKind k, uint64_t key, MPI_Comm parent, uint16_t fid, bool locked,
                             SignatureBuffer &sig) {
  HandleRegistry &reg = r_->handles[static_cast<int>(k)];
  bool fixed = false;
  uint64_t enc = reg.encode_fixed(key, fixed);
  if (fixed) { // null (a failed call, a non-member) or predefined: nothing to agree on
    sig.put_varint(enc);
    return;
  }
  AgreedIdSet &ids = reg.agreed_ids();
  if (k == HandleKind::Comm) {
    const MPI_Comm comm = handle_from_key<MPI_Comm>(key);
    if (fid == id_idup_ || fid == id_idup_info_) {
      start_idup(key, parent, sig);
      return;
    }
    bool other_job = false;
    for (uint16_t id : other_job_)
      other_job = other_job || id == fid;
    uint32_t id;
    if (other_job) {
      met_other_job_ = true;
      int size = 1;
      if (parent != MPI_COMM_NULL)
        PMPI_Comm_size(parent, &size);
      id = size > 1 ? agree_in_job(ids, parent, locked) : ids.choose_alone();
    } else {
      id = agree_in_job(ids, comm, locked);
    }
    enc = reg.bind(key, id);
    r_->comms.set_encoded_id(comm, enc);
    sig.put_varint(enc);
    return;
  }
  // A window or a file: its members are the members of `parent`.
  uint32_t id = parent != MPI_COMM_NULL ? agree_in_job(ids, parent, locked) : ids.choose_alone();
  sig.put_varint(reg.bind(key, id));
}

void IdAgreements::start_idup(uint64_t key, MPI_Comm parent, SignatureBuffer &sig) {
  HandleRegistry &reg = r_->handles[static_cast<int>(HandleKind::Comm)];
  // The members must name the parent alike: its id agreed (or predefined).
  uint64_t parent_code = 0;
  if (parent == MPI_COMM_NULL || !reg.agreed_code(handle_key(parent), parent_code)) {
    idup_alone(key, parent, sig);
    return;
  }
  // Every member, in both groups of an intercommunicator; of another job's
  // processes, which may not be traced, none.
  std::vector<int> members;
  if (!within_job(parent, members))
    met_other_job_ = true;
  if (members.size() <= 1) {
    idup_alone(key, parent, sig);
    return;
  }
  auto p = std::make_unique<Pending>();
  p->key = key;
  p->serial = next_serial_++;
  p->facts = r_->comms.facts(parent);
  p->facts.key = key;
  set_groups(p->facts, parent); // a dup has its parent's groups
  p->parent_code = parent_code;
  reg.agreed_ids().hold(p->snap, AgreedIdSet::kPendingCandidates, true);
  p->exchange.start(r_->private_comm(), idup_exchange_tag(parent_code, tag_ub_), world_rank_,
                    members, p->snap, parent_code);
  // The element is patched when the id is known: a placeholder (null) until then.
  next_patch_ = p.get();
  next_patch_at_ = sig.size();
  sig.put_varint(0);
  pending_.push_back(std::move(p));
  r_->set_holding(true);
}

void IdAgreements::idup_alone(uint64_t key, MPI_Comm parent, SignatureBuffer &sig) {
  HandleRegistry &reg = r_->handles[static_cast<int>(HandleKind::Comm)];
  CommFacts f = r_->comms.facts(parent);
  f.key = key;
  set_groups(f, parent); // a dup has its parent's groups
  // An id the members agreed on stays agreed for a single member; a parent
  // numbered by this rank alone makes its copy this rank's own too.
  uint64_t unused = 0;
  const bool own = parent == MPI_COMM_NULL || !reg.agreed_code(handle_key(parent), unused);
  f.encoded_id = reg.bind(key, reg.agreed_ids().choose_alone(), own);
  r_->comms.add_history(f);
  sig.put_varint(f.encoded_id);
}

void IdAgreements::hold(const uint8_t *sig, size_t n, int64_t t0, int64_t t1) {
  Held h;
  h.sig.assign(reinterpret_cast<const char *>(sig), n);
  h.t0 = t0;
  h.t1 = t1;
  h.patch = next_patch_;
  h.patch_at = next_patch_at_;
  next_patch_ = nullptr;
  held_.push_back(std::move(h));
  // No polling: agreements are waited for once their idup completed here.
  for (auto &p : pending_)
    if (p->ready && !p->resolved)
      resolve(*p);
  flush();
}

void IdAgreements::idup_completed(uint64_t serial) {
  for (auto &p : pending_)
    if (p->serial == serial)
      p->ready = true;
}

void IdAgreements::resolve(Pending &p) {
  if (p.resolved)
    return;
  HandleRegistry &reg = r_->handles[static_cast<int>(HandleKind::Comm)];
  uint64_t any[AgreedIdSet::kWords], max_overflow = 0;
  if (p.exchange.finish(any, max_overflow)) {
    p.id = reg.agreed_ids().choose_pending(p.snap, any, max_overflow, p.parent_code);
  } else {
    // Offers of another agreement arrived: never expected (idup_exchange.h).
    if (!warned_)
      std::fprintf(stderr,
                   "pilgrim: warning: rank %d: an MPI_Comm_idup id agreement got "
                   "mismatched offers; its id is this rank's own\n",
                   world_rank_);
    warned_ = true;
    p.id =
        reg.agreed_ids().choose_pending(p.snap, p.snap.unavailable, p.snap.overflow, p.parent_code);
  }
  p.resolved = true;
  p.facts.encoded_id = reg.bind(p.key, p.id);
  r_->comms.add_history(p.facts);
}

void IdAgreements::resolve_key(uint64_t key) {
  // Using the communicator means its idup completed here, so every member has
  // made its idup call and sent its offer: waiting for them cannot deadlock.
  for (auto &p : pending_)
    if (!p->resolved && p->key == key)
      resolve(*p);
  flush();
}

void IdAgreements::finish_all() {
  // MPI_Finalize: every member has completed its idups, and so sent its offers.
  for (auto &p : pending_)
    resolve(*p);
  flush();
}

void IdAgreements::flush() {
  // Records leave in order, up to the first idup whose id is not known yet.
  while (held_front_ < held_.size()) {
    Held &h = held_[held_front_];
    if (h.patch) {
      if (!h.patch->resolved)
        break;
      std::string patched = h.sig.substr(0, h.patch_at);
      put_varint(patched, 2ull * h.patch->id + 2);
      patched.append(h.sig, h.patch_at + 1, std::string::npos);
      h.sig.swap(patched);
    }
    r_->record_committed(reinterpret_cast<const uint8_t *>(h.sig.data()), h.sig.size(), h.t0, h.t1);
    ++held_front_;
  }
  if (held_front_ == held_.size()) {
    held_.clear();
    held_front_ = 0;
  }
  // Agreements whose records are all out are done with.
  bool all_resolved = true;
  for (auto &p : pending_)
    all_resolved = all_resolved && p->resolved;
  if (all_resolved && held_.empty()) {
    pending_.clear();
    r_->set_holding(false);
  }
}

size_t IdAgreements::memory_bytes() const {
  size_t m = pending_.capacity() * sizeof(void *) + pending_.size() * sizeof(Pending) +
             held_.capacity() * sizeof(Held);
  for (const auto &p : pending_)
    m += p->exchange.memory_bytes();
  for (const Held &h : held_)
    m += h.sig.capacity();
  return m;
}

} // namespace pilgrim::rt
