// distinct_calls: N MPI calls that are nearly all distinct, in an irregular
// order, on one rank: MPI_Info_set with a different value each time,
// MPI_Type_contiguous/commit/free with a different count, and MPI_Bcast on
// MPI_COMM_SELF with a different count, chosen by a fixed pseudo-random
// sequence. Its trace has about N CST entries and a start rule of about N
// symbols, the worst case for a proxy's size (bench/proxy_compile.sh).
//   distinct_calls N
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const long n = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 1000;
  if (n < 1 || n > 10000000) {
    std::fprintf(stderr, "distinct_calls: N must be in [1, 10^7]\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
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
      MPI_Type_free(&t);
      made += 3;
      break;
    }
    default:
      MPI_Bcast(buf.data(), v, MPI_BYTE, 0, MPI_COMM_SELF);
      made += 1;
    }
  }
  int nkeys = 0;
  MPI_Info_get_nkeys(info, &nkeys);
  MPI_Info_free(&info);
  if (nkeys != 1) {
    std::fprintf(stderr, "distinct_calls: FAIL: %d info keys, expected 1\n", nkeys);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::printf("distinct_calls: OK\n");
  MPI_Finalize();
  return 0;
}
