// Memory MPI returns to the program (MPI_Alloc_mem, MPI_Win_allocate,
// MPI_Win_allocate_shared, MPI_Win_shared_query: a pointer output whose
// function-table entry names its byte size). The trace gives it an address id
// from the call that returns it until the call that frees it (MPI_Free_mem,
// MPI_Win_free of the call's window; runtime/memory/memory_holds.h), and the
// program passes it as window memory and RMA buffers under that id. The
// proxy's buffer variable of the id points to MPI's memory over the same
// span (lend_memory ... return_memory in the prelude), so the proxy's calls
// share memory exactly where the traced program's did.
#pragma once

#include <string>
#include <vector>

#include "call_emitter.h"
#include "pilgrim/decoded_call.h"

namespace pilgrim::proxygen {

struct MemoryLines {
  // Before the call: a window's memory is returned before MPI_Win_free.
  std::vector<std::string> pre;
  // After it: memory is lent once MPI returned it, returned after MPI_Free_mem.
  std::vector<std::string> post;
};

// The lines that lend and return MPI's memory around `call`; the buffers
// they name are added to `symbols`.
MemoryLines mpi_memory_lines(const Call &call, ProxySymbols &symbols);

} // namespace pilgrim::proxygen
