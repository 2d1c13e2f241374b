// The tracer's own statuses for wildcard receives whose application passed
// MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE (call.h, keep_source): MPI writes
// the matched sender, tag and count there, the trace stores them as a Status
// of kind 5 (docs/FORMAT.md §8.3), and the application's memory is never
// touched.
#include "call.h"
#include "recorder.h"

namespace pilgrim::rt {
namespace {

// Before MPI writes it: a source and tag that code as MPI_ANY_SOURCE and
// MPI_ANY_TAG, and a count of 0, should a call fail or return early without
// writing the status.
void clear(MPI_Status &s) {
  s.MPI_SOURCE = MPI_ANY_SOURCE;
  s.MPI_TAG = MPI_ANY_TAG;
  s.MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements(&s, MPI_BYTE, 0);
}

} // namespace

bool Call::any_wildcard_slot() const {
  for (const RequestSlot &s : ts_->slots)
    if (s.entry != RequestRegistry::kNone && s.info.is_p2p && s.info.receive &&
        (s.info.peer == MPI_ANY_SOURCE || s.info.tag == MPI_ANY_TAG))
      return true;
  return false;
}

MPI_Status *Call::private_status() {
  clear(private_status_[0]);
  return private_status_;
}

MPI_Status *Call::private_statuses() {
  std::vector<MPI_Status> &v = ts_->private_statuses;
  if (v.size() < ts_->slots.size())
    v.resize(ts_->slots.size());
  for (size_t i = 0; i < ts_->slots.size(); ++i)
    clear(v[i]);
  private_array_ = true;
  return v.data();
}

} // namespace pilgrim::rt
