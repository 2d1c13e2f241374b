// The calls that frame a run: MPI_Init, MPI_Init_thread and MPI_Finalize.
// Their times are the launch's and the tracer's own work (the clock sync at
// MPI_Init, writing the trace at MPI_Finalize), not the program's, so the
// timing reports (pilgrim-stats, pilgrim-diff --timing) leave them out of
// totals and comparisons.
#pragma once

#include <string_view>

namespace pilgrim {

inline bool frames_run(std::string_view function) {
  return function == "MPI_Init" || function == "MPI_Init_thread" || function == "MPI_Finalize";
}

} // namespace pilgrim
