#include "pilgrim/datatype_sizes.h"

#include "pilgrim/predefined_handles.h"

namespace pilgrim {

namespace {

// Index-aligned with kPredefinedDatatypeNames.
constexpr int8_t kSizes[] = {
    1,  // MPI_CHAR
    1,  // MPI_SIGNED_CHAR
    1,  // MPI_UNSIGNED_CHAR
    1,  // MPI_BYTE
    2,  // MPI_SHORT
    2,  // MPI_UNSIGNED_SHORT
    4,  // MPI_INT
    4,  // MPI_UNSIGNED
    8,  // MPI_LONG
    8,  // MPI_UNSIGNED_LONG
    8,  // MPI_LONG_LONG_INT
    8,  // MPI_LONG_LONG
    8,  // MPI_UNSIGNED_LONG_LONG
    4,  // MPI_FLOAT
    8,  // MPI_DOUBLE
    16, // MPI_LONG_DOUBLE
    4,  // MPI_WCHAR
    1,  // MPI_C_BOOL
    1,  // MPI_INT8_T
    2,  // MPI_INT16_T
    4,  // MPI_INT32_T
    8,  // MPI_INT64_T
    1,  // MPI_UINT8_T
    2,  // MPI_UINT16_T
    4,  // MPI_UINT32_T
    8,  // MPI_UINT64_T
    8,  // MPI_AINT
    8,  // MPI_COUNT
    8,  // MPI_OFFSET
    8,  // MPI_C_COMPLEX
    8,  // MPI_C_FLOAT_COMPLEX
    16, // MPI_C_DOUBLE_COMPLEX
    32, // MPI_C_LONG_DOUBLE_COMPLEX
    8,  // MPI_FLOAT_INT
    12, // MPI_DOUBLE_INT
    12, // MPI_LONG_INT
    8,  // MPI_2INT
    6,  // MPI_SHORT_INT
    20, // MPI_LONG_DOUBLE_INT
    1,  // MPI_PACKED
    0,  // MPI_LB
    0,  // MPI_UB
    1,  // MPI_CHARACTER
    4,  // MPI_LOGICAL
    4,  // MPI_INTEGER
    4,  // MPI_REAL
    8,  // MPI_DOUBLE_PRECISION
    8,  // MPI_COMPLEX
    16, // MPI_DOUBLE_COMPLEX
    8,  // MPI_2REAL
    16, // MPI_2DOUBLE_PRECISION
    8,  // MPI_2INTEGER
    1,  // MPI_INTEGER1
    2,  // MPI_INTEGER2
    4,  // MPI_INTEGER4
    8,  // MPI_INTEGER8
    16, // MPI_INTEGER16
    2,  // MPI_REAL2
    4,  // MPI_REAL4
    8,  // MPI_REAL8
    16, // MPI_REAL16
    8,  // MPI_COMPLEX8
    16, // MPI_COMPLEX16
    32, // MPI_COMPLEX32
    1,  // MPI_LOGICAL1
    2,  // MPI_LOGICAL2
    4,  // MPI_LOGICAL4
    8,  // MPI_LOGICAL8
    1,  // MPI_CXX_BOOL
    8,  // MPI_CXX_FLOAT_COMPLEX
    16, // MPI_CXX_DOUBLE_COMPLEX
    32, // MPI_CXX_LONG_DOUBLE_COMPLEX
    16, // MPI_2COMPLEX
    32, // MPI_2DOUBLE_COMPLEX
};

} // namespace

int64_t predefined_datatype_size(size_t k) {
  constexpr size_t n = sizeof kSizes / sizeof *kSizes;
  if (k >= n || k >= kPredefinedDatatypeCount)
    return -1;
  return kSizes[k];
}

} // namespace pilgrim
