// The id agreement of one MPI_Comm_idup, by direct messages on the runtime's
// private communicator (docs/design/id-agreement.md).
//
// An idup cannot block and its new communicator cannot be used before the
// idup completes, and while it is in flight the MPI library runs its own
// rounds on the parent (Open MPI issues them from its progress engine), so
// the tool must issue nothing on the parent: a PMPI_Iallreduce there made
// Open MPI's collective engine fail with MPI_ERR_TRUNCATE when the
// application ran nonblocking collectives of its own beside the idup.
//
// Instead, in the idup call each member posts, on the private communicator
// (a dup of MPI_COMM_WORLD no application operation can reach), one send of
// its offer to every other member and one receive from each. Nothing has to
// be forwarded, so once every member has made its idup call the offers
// arrive with whatever progress MPI makes: waiting for them cannot deadlock
// after the idup completed on this rank (a completed idup means every
// member called it), and the runtime waits only then: when the application
// completes the idup's request, uses the new communicator, or finalizes.
// Nothing is polled in between, so the tool adds no progress calls of its
// own while the idup's rounds are in flight.
//
// Cost: per member, one message of kWords words to each other member (both
// groups of an intercommunicator). Concurrent agreements between the same
// two ranks are told apart by the tag, which is derived from the parent's
// agreed id: idups on one parent are started in the same order on every
// member, and two live parents have different ids.
#pragma once

#include "common/agreed_id_set.h"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pilgrim::rt {

class IdupExchange {
public:
  // The offer: the "not available here" bitmap, the counter proposal, and a
  // check word (the parent's handle code) that every member sends alike.
  static constexpr int kWords = static_cast<int>(AgreedIdSet::kWords) + 2;

  // Posts the sends and receives. `members`: the world ranks (ranks of
  // `comm`, the private communicator) of every member, this rank included.
  void start(MPI_Comm comm, int tag, int self, const std::vector<int> &members,
             const AgreedIdSet::Snapshot &offer, uint64_t check);
  // Blocks until every offer has arrived and every send is done; `any` gets
  // the OR of all bitmaps, `max_overflow` the largest counter. Returns false
  // when an offer carried another check word (an agreement mixed up with
  // another: never expected).
  bool finish(uint64_t *any, uint64_t &max_overflow);
  size_t memory_bytes() const {
    return (out_.capacity() + in_.capacity()) * sizeof(uint64_t) +
           reqs_.capacity() * sizeof(MPI_Request);
  }

private:
  std::vector<uint64_t> out_, in_; // this rank's offer; the others', kWords each
  std::vector<MPI_Request> reqs_;
};

// The tag of the agreements of idups whose parent has handle code `code`, on
// a communicator whose MPI_TAG_UB is `tag_ub`.
int idup_exchange_tag(uint64_t code, int tag_ub);

} // namespace pilgrim::rt
