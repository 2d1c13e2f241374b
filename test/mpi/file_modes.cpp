// file_modes: MPI_File_open with the modes that need a file's prior state.
//
// In directory DIR: rank 0 writes DIR/input.dat with stdio (MPI does not see
// it), and all ranks open it MPI_MODE_RDONLY (no MPI_MODE_CREATE: it must
// exist), ask its size and read their part; MPI_File_delete of a file that
// does not exist (fails), MPI_MODE_CREATE | MPI_MODE_EXCL of it (it must not
// exist), the same again (fails: it exists now), MPI_MODE_RDONLY (by
// another path, DIR/sub/../excl.dat) to read back what was written, then
// MPI_File_delete; MPI_MODE_RDONLY of a missing file (fails); two files of
// the same base name in two directories (DIR/data.dat, DIR/sub/data.dat)
// written to different sizes. Every result is checked. Runs with 1 or more
// ranks.
//
// Usage: file_modes DIR
#include "mpi_test_util.h"

#include <sys/stat.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

const int N = 4; // ints per rank
int rank = 0, n = 0;

MPI_File open(const std::string &path, int amode, const char *what) {
  MPI_File fh = MPI_FILE_NULL;
  mpitest::check_success(MPI_File_open(MPI_COMM_WORLD, path.c_str(), amode, MPI_INFO_NULL, &fh),
                         what);
  return fh;
}

MPI_Offset size_of(MPI_File fh) {
  MPI_Offset size = -1;
  mpitest::check_success(MPI_File_get_size(fh, &size), "File_get_size");
  return size;
}

// Each rank reads its N ints at rank * N and checks how many came.
std::vector<int> read_part(MPI_File fh, int want, const char *what) {
  std::vector<int> got(N, -1);
  MPI_Status st;
  mpitest::check_success(
      MPI_File_read_at(fh, MPI_Offset(rank) * N * sizeof(int), got.data(), N, MPI_INT, &st), what);
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == want, "%s read %d ints, expected %d", what, count, want);
  return got;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("file_modes");
  n = mpitest::comm_size(MPI_COMM_WORLD);
  rank = mpitest::comm_rank(MPI_COMM_WORLD);
  if (argc < 2)
    mpitest::fail("usage: file_modes DIR");
  const std::string dir = argv[1];

  // A file made outside MPI, opened without MPI_MODE_CREATE.
  if (rank == 0) {
    mkdir((dir + "/sub").c_str(), 0755);
    FILE *f = std::fopen((dir + "/input.dat").c_str(), "wb");
    CHECK(f != nullptr, "cannot write %s/input.dat", dir.c_str());
    for (int i = 0; i < N * n; ++i)
      std::fwrite(&i, sizeof i, 1, f);
    std::fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File fh = open(dir + "/input.dat", MPI_MODE_RDONLY, "File_open(RDONLY) of input.dat");
  CHECK(size_of(fh) == MPI_Offset(N * n * sizeof(int)), "input.dat has another size");
  read_part(fh, N, "File_read_at of input.dat");
  mpitest::check_success(MPI_File_close(&fh), "File_close");

  // MPI_MODE_EXCL: the file must not exist, then must.
  const std::string excl = dir + "/excl.dat";
  if (rank == 0)
    CHECK(MPI_File_delete(excl.c_str(), MPI_INFO_NULL) != MPI_SUCCESS,
          "File_delete of a missing file succeeded");
  MPI_Barrier(MPI_COMM_WORLD);
  fh = open(excl, MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_WRONLY, "File_open(EXCL)");
  std::vector<int> mine(N);
  for (int i = 0; i < N; ++i)
    mine[i] = 100 * rank + i;
  MPI_Status st;
  mpitest::check_success(
      MPI_File_write_at(fh, MPI_Offset(rank) * N * sizeof(int), mine.data(), N, MPI_INT, &st),
      "File_write_at");
  mpitest::check_success(MPI_File_close(&fh), "File_close");
  MPI_File again = MPI_FILE_NULL;
  CHECK(MPI_File_open(MPI_COMM_WORLD, excl.c_str(), MPI_MODE_CREATE | MPI_MODE_EXCL | MPI_MODE_RDWR,
                      MPI_INFO_NULL, &again) != MPI_SUCCESS,
        "a second File_open(EXCL) succeeded");
  // The same file by another path.
  fh = open(dir + "/sub/../excl.dat", MPI_MODE_RDONLY, "File_open(RDONLY) of excl.dat");
  CHECK(read_part(fh, N, "File_read_at of excl.dat") == mine, "excl.dat holds other data");
  mpitest::check_success(MPI_File_close(&fh), "File_close");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    mpitest::check_success(MPI_File_delete(excl.c_str(), MPI_INFO_NULL), "File_delete");
  MPI_Barrier(MPI_COMM_WORLD);

  // A missing file without MPI_MODE_CREATE.
  MPI_File missing = MPI_FILE_NULL;
  CHECK(MPI_File_open(MPI_COMM_WORLD, excl.c_str(), MPI_MODE_RDONLY, MPI_INFO_NULL, &missing) !=
            MPI_SUCCESS,
        "File_open of a deleted file succeeded");

  // One base name, two files: sizes N and 2N ints per rank.
  const std::string paths[2] = {dir + "/data.dat", dir + "/sub/data.dat"};
  for (int k = 0; k < 2; ++k) {
    fh = open(paths[k], MPI_MODE_CREATE | MPI_MODE_RDWR, "File_open(CREATE)");
    mpitest::check_success(MPI_File_set_size(fh, 0), "File_set_size");
    std::vector<int> data((k + 1) * N, rank);
    mpitest::check_success(MPI_File_write_at_all(fh, MPI_Offset(rank) * (k + 1) * N * sizeof(int),
                                                 data.data(), (k + 1) * N, MPI_INT, &st),
                           "File_write_at_all");
    mpitest::check_success(MPI_File_close(&fh), "File_close");
  }
  for (int k = 0; k < 2; ++k) {
    fh = open(paths[k], MPI_MODE_RDONLY, "File_open(RDONLY) of data.dat");
    CHECK(size_of(fh) == MPI_Offset((k + 1) * N * n * sizeof(int)), "%s has another size",
          paths[k].c_str());
    mpitest::check_success(MPI_File_close(&fh), "File_close");
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
