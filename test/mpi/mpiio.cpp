// mpiio: MPI-IO on a shared file.
//
// MPI_File_open, MPI_File_set_size, MPI_File_write_at, MPI_File_sync,
// MPI_File_get_size, MPI_File_read_at, MPI_File_iread_at + MPI_Wait,
// MPI_File_set_view (with an
// interleaved file type), MPI_File_get_view, MPI_File_write_at_all,
// MPI_File_read_all, MPI_File_get_position, MPI_File_seek, MPI_File_close
// and MPI_File_delete.  All data read back is verified.
//
// Usage: mpiio [FILE]   (default: mpiio_test.dat in the current directory;
// the file is deleted at the end).  Runs with 1 or more ranks.
#include "mpi_test_util.h"

#include <vector>

namespace {

const int N = 8;  // ints per rank and region

int block_value(int r, int i) { return 10000 + 100 * r + i; }
int strided_value(int r, int i) { return 50000 + 100 * r + i; }

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("mpiio");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char *path = argc > 1 ? argv[1] : "mpiio_test.dat";
  const MPI_Offset I = sizeof(int);

  // Files use MPI_ERRORS_RETURN by default: check every return code.
  MPI_File fh = MPI_FILE_NULL;
  mpitest::check_success(
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
      "File_open");
  mpitest::check_success(MPI_File_set_size(fh, 0), "File_set_size"); // discard a stale file

  // --- Region 1: independent explicit-offset writes, one block per rank ----
  std::vector<int> block(N);
  for (int i = 0; i < N; ++i) block[i] = block_value(rank, i);
  MPI_Status st;
  mpitest::check_success(MPI_File_write_at(fh, rank * N * I, block.data(), N, MPI_INT, &st),
                         "File_write_at");
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "File_write_at wrote %d ints", count);
  // sync-barrier-sync makes the other ranks' writes visible.
  mpitest::check_success(MPI_File_sync(fh), "File_sync");
  MPI_Barrier(MPI_COMM_WORLD);
  mpitest::check_success(MPI_File_sync(fh), "File_sync");

  MPI_Offset fsize = -1;
  mpitest::check_success(MPI_File_get_size(fh, &fsize), "File_get_size");
  CHECK(fsize == n * N * I, "file size is %lld, expected %lld", (long long)fsize,
        (long long)(n * N * I));

  const int other = (rank + 1) % n;
  std::vector<int> got(N, -1);
  mpitest::check_success(MPI_File_read_at(fh, other * N * I, got.data(), N, MPI_INT, &st),
                         "File_read_at");
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "File_read_at read %d ints", count);
  for (int i = 0; i < N; ++i)
    CHECK(got[i] == block_value(other, i), "File_read_at: element %d of rank %d's block is %d", i,
          other, got[i]);

  // The same block again, nonblocking: the count comes from MPI_Wait's status.
  std::vector<int> again(N, -1);
  MPI_Request req;
  mpitest::check_success(MPI_File_iread_at(fh, other * N * I, again.data(), N, MPI_INT, &req),
                         "File_iread_at");
  MPI_Wait(&req, &st);
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "File_iread_at read %d ints", count);
  CHECK(again == got, "File_iread_at read other data than File_read_at");

  // --- Region 2: collective writes through an interleaved view -------------
  // Rank r owns pairs of ints at positions 2r, 2r+2n, 2r+4n, ... of region 2.
  const MPI_Offset region2 = n * N * I;
  MPI_Datatype pair, filetype;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_create_resized(pair, 0, 2 * n * I, &filetype);
  MPI_Type_commit(&filetype);
  mpitest::check_success(
      MPI_File_set_view(fh, region2 + 2 * rank * I, MPI_INT, filetype, "native", MPI_INFO_NULL),
      "File_set_view");
  {
    MPI_Offset disp = -1;
    MPI_Datatype etype, ftype;
    char rep[MPI_MAX_DATAREP_STRING];
    mpitest::check_success(MPI_File_get_view(fh, &disp, &etype, &ftype, rep), "File_get_view");
    CHECK(disp == region2 + 2 * rank * I && etype == MPI_INT, "File_get_view: disp %lld",
          (long long)disp);
    MPI_Type_free(&ftype);  // a derived file type is returned as a new handle
  }
  std::vector<int> strided(N);
  for (int i = 0; i < N; ++i) strided[i] = strided_value(rank, i);
  mpitest::check_success(MPI_File_write_at_all(fh, 0, strided.data(), N, MPI_INT, &st),
                         "File_write_at_all");
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "File_write_at_all wrote %d ints", count);
  mpitest::check_success(MPI_File_sync(fh), "File_sync");
  MPI_Barrier(MPI_COMM_WORLD);
  mpitest::check_success(MPI_File_sync(fh), "File_sync");

  // The individual file pointer is still at the start of the view.
  MPI_Offset pos = -1;
  mpitest::check_success(MPI_File_get_position(fh, &pos), "File_get_position");
  CHECK(pos == 0, "file pointer is at %lld before File_read_all", (long long)pos);
  got.assign(N, -1);
  mpitest::check_success(MPI_File_read_all(fh, got.data(), N, MPI_INT, &st), "File_read_all");
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == N, "File_read_all read %d ints", count);
  for (int i = 0; i < N; ++i)
    CHECK(got[i] == strided_value(rank, i), "File_read_all: element %d is %d", i, got[i]);
  mpitest::check_success(MPI_File_get_position(fh, &pos), "File_get_position");
  CHECK(pos == N, "file pointer is at %lld after File_read_all", (long long)pos);

  // Re-read the second half through the view after a seek.
  mpitest::check_success(MPI_File_seek(fh, N / 2, MPI_SEEK_SET), "File_seek");
  got.assign(N, -1);
  mpitest::check_success(MPI_File_read_all(fh, got.data(), N / 2, MPI_INT, &st), "File_read_all");
  for (int i = 0; i < N / 2; ++i)
    CHECK(got[i] == strided_value(rank, N / 2 + i), "File_read_all after seek: element %d is %d",
          i, got[i]);

  // --- Check the interleaving through a plain byte view ---------------------
  mpitest::check_success(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                         "File_set_view");
  std::vector<int> region(n * N, -1);
  mpitest::check_success(MPI_File_read_at(fh, region2, region.data(), n * N, MPI_INT, &st),
                         "File_read_at");
  for (int k = 0; k < n * N; ++k) {
    const int pair_index = k / 2, owner = pair_index % n, i = 2 * (pair_index / n) + k % 2;
    CHECK(region[k] == strided_value(owner, i), "interleaved region: int %d is %d, expected %d",
          k, region[k], strided_value(owner, i));
  }
  mpitest::check_success(MPI_File_get_size(fh, &fsize), "File_get_size");
  CHECK(fsize == 2 * n * N * I, "file size is %lld, expected %lld", (long long)fsize,
        (long long)(2 * n * N * I));

  mpitest::check_success(MPI_File_close(&fh), "File_close");
  CHECK(fh == MPI_FILE_NULL, "File_close did not reset the handle");
  MPI_Type_free(&filetype);
  MPI_Type_free(&pair);

  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    mpitest::check_success(MPI_File_delete(path, MPI_INFO_NULL), "File_delete");

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
