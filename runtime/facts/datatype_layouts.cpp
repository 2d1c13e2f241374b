#include "datatype_layouts.h"

#include "call_inline.h"
#include "pilgrim/record_ranges.h"
#include "recorder.h"

namespace pilgrim::rt {
namespace {

// Whether bounds `lb` and `ub` lie in one memory the run knows, or are both
// plain numbers: a datatype over several allocations has bounds whose
// order and distance change from run to run, which are stored as unknown
// (NULL), so that a proxy of the program re-traces the same record.
bool one_memory(MPI_Count lb, MPI_Count ub) {
  const AddressAnchors &anchors = Recorder::get().addresses.anchors();
  uint32_t a = 0, b = 0;
  uint64_t offset = 0;
  const bool in_a = anchors.find(static_cast<uint64_t>(lb), a, offset);
  const bool in_b = anchors.find(static_cast<uint64_t>(ub), b, offset);
  return in_a == in_b && a == b;
}

} // namespace

void record_datatype_layout(MPI_Datatype datatype) {
  MPI_Count size = 0, lb = 0, extent = 0, true_lb = 0, true_extent = 0;
  // PMPI: the tracer's own questions are no calls of the program.
  if (PMPI_Type_size_x(datatype, &size) != MPI_SUCCESS ||
      PMPI_Type_get_extent_x(datatype, &lb, &extent) != MPI_SUCCESS ||
      PMPI_Type_get_true_extent_x(datatype, &true_lb, &true_extent) != MPI_SUCCESS)
    return;
  // A record after the call, in the call's own thread, taking no time of its own.
  Call c(kDatatypeLayoutRecord, Call::Nested{});
  if (!c.active())
    return;
  c.handle(HandleKind::Datatype, datatype);
  c.value(static_cast<int64_t>(size));
  // Bounds, not extents: the upper bound of a datatype over absolute
  // addresses lies in the memory of its last block, and is stored as an
  // address there, where its extent, a distance between two memories,
  // would change from run to run.
  const MPI_Count ub = lb + extent, true_ub = true_lb + true_extent;
  const bool known = one_memory(lb, ub), true_known = one_memory(true_lb, true_ub);
  c.addresses(known ? &lb : nullptr, 1);
  c.addresses(known ? &ub : nullptr, 1);
  c.addresses(true_known ? &true_lb : nullptr, 1);
  c.addresses(true_known ? &true_ub : nullptr, 1);
  c.finish_nested(MPI_SUCCESS);
}

} // namespace pilgrim::rt
