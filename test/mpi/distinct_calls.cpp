// distinct_calls: N MPI calls that are nearly all distinct, in an irregular
// order, on one rank: MPI_Info_set with a different value each time,
// MPI_Type_contiguous/commit/free with a different count, and MPI_Bcast on
// MPI_COMM_SELF with a different count, chosen by a fixed pseudo-random
// sequence. Its trace has about N CST entries and a start rule of about N
// symbols, the worst case for a proxy's size (bench/proxy_compile.sh,
// test/proxy/table_runs.test).
//   distinct_calls N
#include "mpi_test_util.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("distinct_calls");
  char *end = nullptr;
  const long n = argc > 1 ? std::strtol(argv[1], &end, 10) : 1000;
  CHECK(argc <= 1 || (*end == '\0' && n >= 1 && n <= 10000000), "N must be in [1, 10^7]");
  long bcast_bytes = 0, types = 0;
  MPI_Info info;
  MPI_Info_create(&info);
  std::vector<char> buf(4096, 1);
  uint64_t x = 88172645463325252ull;
  long made = 0;
  while (made < n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const int v = static_cast<int>(x % 4000) + 1;
    switch (x >> 62) {
    case 0:
    case 1: {
      const std::string value = std::to_string(x % 1000003);
      MPI_Info_set(info, "key", value.c_str());
      made += 1;
      break;
    }
    case 2: {
      MPI_Datatype t;
      MPI_Type_contiguous(v, MPI_BYTE, &t);
      MPI_Type_commit(&t);
      int size = -1;
      MPI_Type_size(t, &size);
      CHECK(size == v, "a contiguous type of %d bytes has size %d", v, size);
      MPI_Type_free(&t);
      made += 4;
      ++types;
      break;
    }
    default:
      MPI_Bcast(buf.data(), v, MPI_BYTE, 0, MPI_COMM_SELF);
      bcast_bytes += v;
      made += 1;
    }
  }
  int nkeys = 0;
  MPI_Info_get_nkeys(info, &nkeys);
  CHECK(nkeys == 1, "%d info keys, expected 1", nkeys);
  MPI_Info_free(&info);
  CHECK(types > 0 && bcast_bytes > 0, "the mix made no types or no broadcasts");
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
