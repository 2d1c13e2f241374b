#include "idup_exchange.h"

#include <algorithm>

namespace pilgrim::rt {

namespace {
constexpr int kWords = IdupExchange::kWords;
constexpr int kBitmapWords = static_cast<int>(AgreedIdSet::kWords);
// Above the other tags of the private communicator (the merge's 7, the
// Comm_create_group tag 0x5049 of id_agreement.cpp).
constexpr int kTagBase = 0x6000;
} // namespace

int idup_exchange_tag(uint64_t code, int tag_ub) {
  // MPI guarantees MPI_TAG_UB >= 32767, so the range holds at least 8192 tags.
  const uint64_t range = static_cast<uint64_t>(std::max(tag_ub, 32767) - kTagBase) + 1;
  return kTagBase + static_cast<int>(code % range);
}

void IdupExchange::start(MPI_Comm comm, int tag, int self, const std::vector<int> &members,
                         const AgreedIdSet::Snapshot &offer, uint64_t check) {
  out_.assign(offer.unavailable, offer.unavailable + kBitmapWords);
  out_.push_back(offer.overflow);
  out_.push_back(check);
  const size_t others = members.size() - (std::count(members.begin(), members.end(), self) ? 1 : 0);
  in_.assign(others * kWords, 0);
  reqs_.assign(2 * others, MPI_REQUEST_NULL);
  size_t i = 0;
  for (int m : members) {
    if (m == self)
      continue;
    PMPI_Irecv(&in_[i * kWords], kWords, MPI_UINT64_T, m, tag, comm, &reqs_[2 * i]);
    PMPI_Isend(out_.data(), kWords, MPI_UINT64_T, m, tag, comm, &reqs_[2 * i + 1]);
    ++i;
  }
}

bool IdupExchange::finish(uint64_t *any, uint64_t &max_overflow) {
  if (!reqs_.empty())
    PMPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(), MPI_STATUSES_IGNORE);
  const uint64_t check = out_[kWords - 1];
  bool same = true;
  std::copy(out_.begin(), out_.begin() + kBitmapWords, any);
  max_overflow = out_[kBitmapWords];
  for (size_t at = 0; at < in_.size(); at += kWords) {
    for (int w = 0; w < kBitmapWords; ++w)
      any[w] |= in_[at + static_cast<size_t>(w)];
    max_overflow = std::max(max_overflow, in_[at + kBitmapWords]);
    same = same && in_[at + kWords - 1] == check;
  }
  std::vector<uint64_t>().swap(in_);
  std::vector<MPI_Request>().swap(reqs_);
  return same;
}

} // namespace pilgrim::rt
