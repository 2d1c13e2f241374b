// Symbolic ids that every member of a communicator agrees on, for
// communicators and for the windows and files made on them (docs/design/id-agreement.md;
// the Pilgrim paper, section 2.5).
//
// Each id is chosen when its object is created, by the members: each offers
// its smallest free ids (AgreedIdSet::hold), a bitwise-OR allreduce finds the
// smallest one free on all of them. The collective runs only inside creation
// calls, never on the path of other calls:
//
//  * an intracommunicator: on the new communicator, before the application
//    gets its handle (the first operation on it, so no application operation
//    can match it);
//  * an intercommunicator from MPI_Intercomm_create and friends: two allreduces
//    on it, so that both groups agree (the first brings each group the other
//    group's OR, the second its own);
//  * an intercommunicator to another MPI job (spawn, connect/accept, join, the
//    parent): the two sides are separate runs with separate traces, and the
//    other side may not be traced at all (a collective with it would then
//    hang), so only the local group agrees, over the call's communicator;
//  * once this process is connected to another job, any communicator may
//    span jobs (the merge of a spawn's intercommunicator): only the members
//    in this job's MPI_COMM_WORLD agree, over a communicator made of them
//    with PMPI_Comm_create_group on the runtime's private world dup;
//  * a window or file: on the communicator it was created on, right after the
//    collective creation call, on every member;
//  * MPI_Comm_idup: nothing on the parent, where the idup's own rounds are in
//    flight, and nothing blocking: in the idup call each member sends its
//    offer to every other member (both groups of an intercommunicator) on
//    the runtime's private communicator (idup_exchange.h). The agreement is
//    resolved, waiting for the offers, only once the idup has completed on
//    this rank (its request completes, the new communicator is used) or at
//    MPI_Finalize: by then every member has made its idup call and sent its
//    offer. Until then the calls this rank records are held back, in order,
//    and the idup call's own record gets the agreed id patched in, so the
//    trace shows the final id everywhere.
#pragma once

#include "common/agreed_id_set.h"
#include "handles/comm_registry.h"
#include "handles/idup_exchange.h"
#include "pilgrim/function_table.h"
#include "signatures/signature_buffer.h"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pilgrim::rt {

class Recorder;

class IdAgreements {
public:
  // At MPI_Init, after the predefined handles are known: Comm, Win and File
  // ids become agreed ones; a spawned process names its parent.
  void init(Recorder &r);
  // A handle of kind `k` (Comm, Win or File) was just created by function
  // `fid`; `parent` is the call's communicator argument (MPI_COMM_NULL if
  // none). Writes the handle's element into `sig`. `locked`: the caller holds
  // the recorder's lock, released during collectives.
  void on_create(HandleKind k, uint64_t key, MPI_Comm parent, uint16_t fid, bool locked,
                 SignatureBuffer &sig);

  // While an idup's agreement is in flight, records are held back here.
  void hold(const uint8_t *sig, size_t n, int64_t t0, int64_t t1);
  // The idup agreement started by the call being recorded (0 if none): its
  // request carries this serial (ReqInfo::idup).
  uint64_t started_idup() const { return next_patch_ ? next_patch_->serial : 0; }
  // The request of idup agreement `serial` completed on this rank: every
  // member has made its idup call, so the agreement can be waited for.
  void idup_completed(uint64_t serial);
  // Waits for every agreement and records what was held (MPI_Finalize).
  void finish_all();
  // The communicator `key` is used: its agreement, if in flight, is waited for.
  void resolve_key(uint64_t key);
  size_t memory_bytes() const;

private:
  struct Pending {
    uint64_t key = 0;
    uint64_t serial = 0;
    uint64_t parent_code = 0; // the parent's agreed code: the same on every member
    AgreedIdSet::Snapshot snap{};
    IdupExchange exchange;
    CommFacts facts; // the parent's rank and sizes: a dup has the same
    bool ready = false; // the idup completed here: waiting is safe
    bool resolved = false;
    uint32_t id = 0;
  };
  struct Held {
    std::string sig;
    int64_t t0 = 0, t1 = 0;
    Pending *patch = nullptr; // the idup call whose new comm's element is at patch_at
    size_t patch_at = 0;
  };

  uint32_t agree_now(AgreedIdSet &ids, MPI_Comm over, bool inter, bool locked);
  // agree_now among the members of `comm` in this job (all of them, unless
  // the process has met another job).
  uint32_t agree_in_job(AgreedIdSet &ids, MPI_Comm comm, bool locked);
  // Whether every member of `comm` (both groups) is in this job's world.
  bool within_job(MPI_Comm comm, std::vector<int> &world_ranks);
  void start_idup(uint64_t key, MPI_Comm parent, SignatureBuffer &sig);
  // The idup's id chosen by this rank alone, without an agreement.
  void idup_alone(uint64_t key, MPI_Comm parent, SignatureBuffer &sig);
  void resolve(Pending &p);
  void flush();

  Recorder *r_ = nullptr;
  uint16_t id_idup_ = 0xffff, id_idup_info_ = 0xffff;
  std::vector<uint16_t> other_job_; // spawn, connect, accept, join
  bool met_other_job_ = false;      // a communicator may span jobs from now on
  int world_rank_ = 0, tag_ub_ = 32767; // on the private communicator
  uint64_t next_serial_ = 1;
  bool warned_ = false;
  std::vector<std::unique_ptr<Pending>> pending_;
  std::vector<Held> held_;
  size_t held_front_ = 0;
  // The idup record being built by this call (set by on_create, taken by hold).
  Pending *next_patch_ = nullptr;
  size_t next_patch_at_ = 0;
};

}  // namespace pilgrim::rt
