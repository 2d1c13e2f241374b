// The tracer's fact record of a datatype's layout (docs/FORMAT.md §8.5,
// pilgrim_datatype_layout in generator/annotations/records.yaml): the
// wrapper of a call whose sidecar marks a datatype `layout: true`
// (MPI_Type_commit, MPI_Type_dup) records, right after the call succeeded,
// the datatype's size, lower and upper bound, true lower and upper bound,
// so that readers count its buffers in bytes.
#pragma once

#include <mpi.h>

namespace pilgrim::rt {

// Records the layout of `datatype` as a record after the call in progress
// on this thread (nothing outside a traced call or while not recording).
void record_datatype_layout(MPI_Datatype datatype);

} // namespace pilgrim::rt
