// large_counts: element counts, sizes and extents above 2^31, without any
// large buffer.
//
//  1. statuses whose counts MPI_Status_set_elements_x sets above 2^31 bytes
//     (3e9 bytes; 3 GiB of ints), read back with
//     MPI_Get_elements_x, MPI_Get_count and MPI_Get_elements (MPI_UNDEFINED
//     where the int cannot hold the answer);
//  2. the status of a real (empty) message, its count then raised above 2^31;
//  3. a datatype of 2^32 bytes (MPI_Type_size_x, MPI_Type_get_extent_x,
//     MPI_Type_get_true_extent_x; MPI_Type_size says MPI_UNDEFINED) and an
//     MPI_Aint stride of 2^33 (MPI_Type_create_hvector, MPI_Type_get_extent);
//  4. where the MPI has MPI 4's large-count functions (MPICH 4): a send and
//     receive of 3e9 elements of a zero-size type (MPI_Send_c, MPI_Recv_c,
//     MPI_Get_count_c), MPI_Type_contiguous_c of 3e9 bytes (MPI_Type_size_c,
//     MPI_Type_get_extent_c) and MPI_Get_elements_c.
//
// Runs with 2 or more ranks: rank 1 sends to rank 0, every rank does the rest.
#include "mpi_test_util.h"

#include <cstring>

namespace {

const MPI_Count kBig = 3000000000LL; // above 2^31 (2147483648)
const MPI_Count kMiB = 1 << 20;

MPI_Count elements_x(const MPI_Status &st, MPI_Datatype type) {
  MPI_Count c = -1;
  MPI_Get_elements_x(&st, type, &c);
  return c;
}

int count_int(const MPI_Status &st, MPI_Datatype type) {
  int c = -1;
  MPI_Get_count(&st, type, &c);
  return c;
}

int elements_int(const MPI_Status &st, MPI_Datatype type) {
  int c = -1;
  MPI_Get_elements(&st, type, &c);
  return c;
}

// 1. Counts set on a status.
void set_counts(MPI_Datatype mib) {
  MPI_Status st;
  std::memset(&st, 0, sizeof st);
  MPI_Status_set_elements_x(&st, MPI_BYTE, kBig);
  CHECK(elements_x(st, MPI_BYTE) == kBig, "Get_elements_x after set_elements_x(3e9 bytes): %lld",
        static_cast<long long>(elements_x(st, MPI_BYTE)));
  CHECK(count_int(st, MPI_BYTE) == MPI_UNDEFINED,
        "Get_count of 3e9 bytes: %d, expected MPI_UNDEFINED", count_int(st, MPI_BYTE));
  CHECK(elements_int(st, MPI_BYTE) == MPI_UNDEFINED,
        "Get_elements of 3e9 bytes: %d, expected MPI_UNDEFINED", elements_int(st, MPI_BYTE));

  // 3 GiB of ints (3 * 2^28 of them). The count in ints and in MiB fits an int, but
  // Open MPI 4.1 answers MPI_UNDEFINED where the status holds more than
  // 2^31 bytes; MPICH answers the count.
  const MPI_Count ints = 3 * (kMiB << 8);
  MPI_Status_set_elements_x(&st, MPI_INT, ints);
  CHECK(elements_x(st, MPI_INT) == ints, "Get_elements_x in ints: %lld",
        static_cast<long long>(elements_x(st, MPI_INT)));
  CHECK(elements_x(st, MPI_BYTE) == 4 * ints, "Get_elements_x in bytes: %lld",
        static_cast<long long>(elements_x(st, MPI_BYTE)));
  const int in_ints = count_int(st, MPI_INT), in_mib = count_int(st, mib);
  CHECK(in_ints == ints || in_ints == MPI_UNDEFINED, "Get_count in ints: %d", in_ints);
  CHECK(in_mib == 3072 || in_mib == MPI_UNDEFINED, "Get_count in MiB: %d", in_mib);

  // Back below 2^31 with the int setter.
  MPI_Status_set_elements(&st, MPI_INT, 1000);
  CHECK(elements_x(st, MPI_BYTE) == 4000, "Get_elements_x after set_elements(1000 ints): %lld",
        static_cast<long long>(elements_x(st, MPI_BYTE)));
}

// 2. A received status, its count raised afterwards.
void received_status(int rank) {
  if (rank == 1)
    MPI_Send(nullptr, 0, MPI_BYTE, 0, 5, MPI_COMM_WORLD);
  if (rank != 0)
    return;
  MPI_Status st;
  MPI_Recv(nullptr, 0, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &st);
  CHECK_STATUS(st, MPI_BYTE, 1, 5, 0, "empty message");
  MPI_Status_set_elements_x(&st, MPI_BYTE, kBig + 1);
  CHECK(st.MPI_SOURCE == 1 && st.MPI_TAG == 5, "set_elements_x changed source/tag: %d/%d",
        st.MPI_SOURCE, st.MPI_TAG);
  CHECK(elements_x(st, MPI_BYTE) == kBig + 1, "received status raised: %lld",
        static_cast<long long>(elements_x(st, MPI_BYTE)));
}

// 3. Sizes and extents of types no buffer is ever made for.
void type_sizes(MPI_Datatype mib) {
  MPI_Datatype four_gib = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(4096, mib, &four_gib);
  MPI_Type_commit(&four_gib);
  const MPI_Count want = 4096 * kMiB;
  MPI_Count size = -1, lb = -1, extent = -1, true_lb = -1, true_extent = -1;
  MPI_Type_size_x(four_gib, &size);
  CHECK(size == want, "Type_size_x of 4 GiB: %lld", static_cast<long long>(size));
  int isize = 0;
  MPI_Type_size(four_gib, &isize);
  CHECK(isize == MPI_UNDEFINED, "Type_size of 4 GiB: %d, expected MPI_UNDEFINED", isize);
  MPI_Type_get_extent_x(four_gib, &lb, &extent);
  CHECK(lb == 0 && extent == want, "Type_get_extent_x of 4 GiB: lb %lld extent %lld",
        static_cast<long long>(lb), static_cast<long long>(extent));
  MPI_Type_get_true_extent_x(four_gib, &true_lb, &true_extent);
  CHECK(true_lb == 0 && true_extent == want, "Type_get_true_extent_x of 4 GiB: %lld %lld",
        static_cast<long long>(true_lb), static_cast<long long>(true_extent));
  MPI_Type_free(&four_gib);

  const MPI_Aint stride = MPI_Aint{1} << 33;
  MPI_Datatype far = MPI_DATATYPE_NULL;
  MPI_Type_create_hvector(2, 1, stride, MPI_INT, &far);
  MPI_Aint alb = -1, aextent = -1;
  MPI_Type_get_extent(far, &alb, &aextent);
  CHECK(alb == 0 && aextent == stride + 4, "hvector extent: lb %ld extent %ld",
        static_cast<long>(alb), static_cast<long>(aextent));
  MPI_Type_free(&far);
}

#if MPI_VERSION >= 4
// 4. MPI 4's large-count functions.
void large_count_functions(int rank) {
  MPI_Datatype empty = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(0, MPI_INT, &empty);
  MPI_Type_commit(&empty);
  char byte = 0;
  if (rank == 1)
    MPI_Send_c(&byte, kBig, empty, 0, 6, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Status st;
    MPI_Recv_c(&byte, kBig, empty, 1, 6, MPI_COMM_WORLD, &st);
    MPI_Count c = -1;
    MPI_Get_count_c(&st, MPI_BYTE, &c);
    CHECK(c == 0, "Get_count_c of 3e9 empty elements: %lld bytes", static_cast<long long>(c));
    MPI_Status_set_elements_x(&st, MPI_BYTE, kBig);
    MPI_Get_count_c(&st, MPI_BYTE, &c);
    CHECK(c == kBig, "Get_count_c after set_elements_x: %lld", static_cast<long long>(c));
    MPI_Get_elements_c(&st, MPI_SHORT, &c);
    CHECK(c == kBig / 2, "Get_elements_c in shorts: %lld", static_cast<long long>(c));
  }
  MPI_Type_free(&empty);

  MPI_Datatype big = MPI_DATATYPE_NULL;
  MPI_Type_contiguous_c(kBig, MPI_BYTE, &big);
  MPI_Count size = -1, lb = -1, extent = -1;
  MPI_Type_size_c(big, &size);
  CHECK(size == kBig, "Type_size_c of 3e9 bytes: %lld", static_cast<long long>(size));
  MPI_Type_get_extent_c(big, &lb, &extent);
  CHECK(lb == 0 && extent == kBig, "Type_get_extent_c: %lld %lld", static_cast<long long>(lb),
        static_cast<long long>(extent));
  MPI_Type_free(&big);
}
#endif

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("large_counts");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  CHECK(mpitest::comm_size(MPI_COMM_WORLD) >= 2, "needs at least 2 ranks");

  MPI_Datatype mib = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(kMiB), MPI_BYTE, &mib);
  MPI_Type_commit(&mib);
  set_counts(mib);
  received_status(rank);
  type_sizes(mib);
#if MPI_VERSION >= 4
  large_count_functions(rank);
#endif
  MPI_Type_free(&mib);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
