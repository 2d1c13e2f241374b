#include "datatype_layouts.h"

#include "call.h"
#include "pilgrim/record_ranges.h"

namespace pilgrim::rt {

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
  c.address(static_cast<int64_t>(lb));
  c.value(static_cast<int64_t>(extent));
  c.address(static_cast<int64_t>(true_lb));
  c.value(static_cast<int64_t>(true_extent));
  c.finish_nested(MPI_SUCCESS);
}

} // namespace pilgrim::rt
