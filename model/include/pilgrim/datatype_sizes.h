// Sizes in bytes (MPI_Type_size, i.e. data bytes without padding) of the
// predefined datatypes of predefined_handles.h, as on LP64 Linux (x86-64,
// aarch64) with the usual Fortran defaults (INTEGER, REAL, LOGICAL = 4 bytes).
// Readers use them to estimate message volume (pilgrim-stats); a trace
// does not record them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pilgrim {

// Size of predefined datatype number k, or -1 when not fixed (k out of range).
int64_t predefined_datatype_size(size_t k);

} // namespace pilgrim
