// Named MPI constants in generated proxies: the trace's library decides the
// value -> name mapping (MPI_ORDER_C is 0 in Open MPI, 56 in MPICH).
#include "named_constants.h"

#include <gtest/gtest.h>

using pilgrim::proxygen::named_constant;

TEST(ProxygenNamedConstants, OrderDependsOnTheLibrary) {
  EXPECT_EQ(named_constant("Open MPI", "MPI_Type_create_subarray", "order", 0), "MPI_ORDER_C");
  EXPECT_EQ(named_constant("MPICH", "MPI_Type_create_subarray", "order", 56), "MPI_ORDER_C");
  EXPECT_EQ(named_constant("MPICH", "MPI_Type_create_subarray", "order", 57),
            "MPI_ORDER_FORTRAN");
  EXPECT_EQ(named_constant("MPICH", "MPI_Type_create_subarray", "order", 0), "");
}

TEST(ProxygenNamedConstants, FlagSetsAreOredNames) {
  EXPECT_EQ(named_constant("Open MPI", "MPI_Win_fence", "assert", 2 | 4),
            "MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE");
  EXPECT_EQ(named_constant("MPICH", "MPI_Win_fence", "assert", 16384), "MPI_MODE_NOSUCCEED");
  EXPECT_EQ(named_constant("Open MPI", "MPI_Win_fence", "assert", 0), "0");
  EXPECT_EQ(named_constant("Open MPI", "MPI_File_open", "amode", 1 | 8),
            "MPI_MODE_CREATE | MPI_MODE_RDWR");
  // A bit no name covers: the number is kept.
  EXPECT_EQ(named_constant("Open MPI", "MPI_Win_fence", "assert", 1 << 20), "");
}

TEST(ProxygenNamedConstants, OnlyKnownParametersAndLibraries) {
  EXPECT_EQ(named_constant("Open MPI", "MPI_Send", "count", 0), "");
  EXPECT_EQ(named_constant("Open MPI", "MPI_Comm_split", "assert", 1), ""); // not a window call
  EXPECT_EQ(named_constant("Some MPI", "MPI_Type_create_subarray", "order", 0), "");
  EXPECT_EQ(named_constant("Open MPI", "MPI_Win_lock", "lock_type", 1), "MPI_LOCK_EXCLUSIVE");
  EXPECT_EQ(named_constant("MPICH", "MPI_Win_lock", "lock_type", 235), "MPI_LOCK_SHARED");
  EXPECT_EQ(named_constant("MPICH", "MPI_Type_create_darray", "array_of_dargs", -49767),
            "MPI_DISTRIBUTE_DFLT_DARG");
}
