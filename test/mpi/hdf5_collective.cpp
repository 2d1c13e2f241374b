// hdf5_collective: a dataset written and read collectively through parallel
// HDF5 (its MPI-IO driver), with HDF5's C API.
//
// The file is opened with H5Pset_fapl_mpio on MPI_COMM_WORLD; a 2-D dataset
// of (ranks x kRows) x kCols ints gets one hyperslab of kRows rows per rank,
// written with H5Pset_dxpl_mpio(H5FD_MPIO_COLLECTIVE); then every rank reads
// the next rank's hyperslab back collectively and checks it. That the
// transfers really were collective is checked too
// (H5Pget_mpio_actual_io_mode).
//
// Usage:
//   hdf5_collective FILE               write, read back, close everything
//   hdf5_collective FILE --leave-open  the same, but leave the file, the
//                                      dataset and the property lists open:
//                                      HDF5 closes them inside MPI_Finalize
//                                      (from its MPI_COMM_SELF attribute's
//                                      delete callback), making its MPI-IO
//                                      calls there
//   hdf5_collective FILE --verify      open FILE read-only and check every
//                                      rank's hyperslab: a file the first
//                                      two modes wrote, closed properly
// Runs with 1 or more ranks (--verify: as many as wrote the file).
#include "mpi_test_util.h"

#include <hdf5.h>

#include <cstring>
#include <vector>

namespace {

const int kRows = 4, kCols = 8;

int value(int rank, int row, int col) { return 100000 * (rank + 1) + 100 * row + col; }

void check_h5(herr_t rc, const char *what) { CHECK(rc >= 0, "%s failed", what); }
hid_t check_id(hid_t id, const char *what) {
  CHECK(id >= 0, "%s failed", what);
  return id;
}

// The file space with `rank`'s rows selected, and a memory space of one block.
hid_t block_selection(hid_t dset, int rank) {
  const hid_t space = check_id(H5Dget_space(dset), "H5Dget_space");
  const hsize_t start[2] = {static_cast<hsize_t>(rank) * kRows, 0};
  const hsize_t count[2] = {kRows, kCols};
  check_h5(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr),
           "H5Sselect_hyperslab");
  return space;
}

void check_block(const std::vector<int> &got, int owner, const char *what) {
  for (int r = 0; r < kRows; ++r)
    for (int c = 0; c < kCols; ++c)
      CHECK(got[r * kCols + c] == value(owner, r, c), "%s: rank %d's row %d col %d is %d, not %d",
            what, owner, r, c, got[r * kCols + c], value(owner, r, c));
}

// The transfer that `dxpl` last made was collective.
void check_collective(hid_t dxpl, const char *what) {
  H5D_mpio_actual_io_mode_t mode = H5D_MPIO_NO_COLLECTIVE;
  check_h5(H5Pget_mpio_actual_io_mode(dxpl, &mode), "H5Pget_mpio_actual_io_mode");
  CHECK(mode == H5D_MPIO_CONTIGUOUS_COLLECTIVE, "%s was not collective (actual io mode %d)", what,
        static_cast<int>(mode));
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("hdf5_collective");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  CHECK(argc == 2 || (argc == 3 && (std::strcmp(argv[2], "--leave-open") == 0 ||
                                    std::strcmp(argv[2], "--verify") == 0)),
        "usage: hdf5_collective FILE [--leave-open|--verify]");
  const char *path = argv[1];
  const bool leave_open = argc == 3 && std::strcmp(argv[2], "--leave-open") == 0;
  const bool verify = argc == 3 && std::strcmp(argv[2], "--verify") == 0;

  const hid_t fapl = check_id(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate(FILE_ACCESS)");
  check_h5(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL), "H5Pset_fapl_mpio");
  const hid_t dxpl = check_id(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate(DATASET_XFER)");
  check_h5(H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE), "H5Pset_dxpl_mpio");
  const hsize_t block_dims[2] = {kRows, kCols};
  const hid_t memspace = check_id(H5Screate_simple(2, block_dims, nullptr), "H5Screate_simple");
  std::vector<int> got(kRows * kCols, -1);

  if (verify) {
    const hid_t file = check_id(H5Fopen(path, H5F_ACC_RDONLY, fapl), "H5Fopen");
    const hid_t dset = check_id(H5Dopen2(file, "blocks", H5P_DEFAULT), "H5Dopen2");
    const hid_t all = check_id(H5Dget_space(dset), "H5Dget_space");
    hsize_t dims[2] = {0, 0};
    CHECK(H5Sget_simple_extent_dims(all, dims, nullptr) == 2, "the dataset is not 2-D");
    CHECK(dims[0] == hsize_t(size) * kRows && dims[1] == kCols,
          "the dataset is %llu x %llu, not %d x %d", static_cast<unsigned long long>(dims[0]),
          static_cast<unsigned long long>(dims[1]), size * kRows, kCols);
    for (int owner = 0; owner < size; ++owner) {
      const hid_t space = block_selection(dset, owner);
      check_h5(H5Dread(dset, H5T_NATIVE_INT, memspace, space, dxpl, got.data()), "H5Dread");
      check_block(got, owner, "verify");
      check_h5(H5Sclose(space), "H5Sclose");
    }
    check_h5(H5Sclose(all), "H5Sclose");
    check_h5(H5Dclose(dset), "H5Dclose");
    check_h5(H5Fclose(file), "H5Fclose");
  } else {
    const hid_t file = check_id(H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl), "H5Fcreate");
    const hsize_t dims[2] = {static_cast<hsize_t>(size) * kRows, kCols};
    const hid_t all = check_id(H5Screate_simple(2, dims, nullptr), "H5Screate_simple");
    const hid_t dset = check_id(
        H5Dcreate2(file, "blocks", H5T_STD_I32LE, all, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
        "H5Dcreate2");
    std::vector<int> mine(kRows * kCols);
    for (int r = 0; r < kRows; ++r)
      for (int c = 0; c < kCols; ++c)
        mine[r * kCols + c] = value(rank, r, c);
    const hid_t my_rows = block_selection(dset, rank);
    check_h5(H5Dwrite(dset, H5T_NATIVE_INT, memspace, my_rows, dxpl, mine.data()), "H5Dwrite");
    check_collective(dxpl, "H5Dwrite");

    // The next rank's rows, written by another process.
    const int next = (rank + 1) % size;
    const hid_t next_rows = block_selection(dset, next);
    check_h5(H5Dread(dset, H5T_NATIVE_INT, memspace, next_rows, dxpl, got.data()), "H5Dread");
    check_collective(dxpl, "H5Dread");
    check_block(got, next, "read back");
    check_h5(H5Sclose(next_rows), "H5Sclose");
    check_h5(H5Sclose(my_rows), "H5Sclose");
    check_h5(H5Sclose(all), "H5Sclose");
    if (!leave_open) {
      check_h5(H5Dclose(dset), "H5Dclose");
      check_h5(H5Fclose(file), "H5Fclose");
    }
  }
  if (!leave_open) {
    check_h5(H5Sclose(memspace), "H5Sclose");
    check_h5(H5Pclose(dxpl), "H5Pclose");
    check_h5(H5Pclose(fapl), "H5Pclose");
  }
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
