// mpiio_ranked: MPI-IO where every rank accesses its own block of a shared
// file at an offset that follows the rank, through every kind of access:
//
//   independent explicit offsets (MPI_File_write_at / read_at), nonblocking
//   (MPI_File_iwrite_at / iread_at + MPI_Wait), collective through a view
//   whose displacement follows the rank (MPI_File_set_view, write_all,
//   MPI_File_seek, read_all, write_at_all, read_at_all), split collective
//   (MPI_File_write_at_all_begin/end, MPI_File_read_all_begin/end), and the
//   shared file pointer: ordered (MPI_File_write_ordered, seek_shared,
//   read_ordered) and independent (MPI_File_write_shared), read back
//   whole.
//
// Layout: rank r's section is [r x S, (r + 1) x S) with S = ITERS x 4
// blocks of B bytes; iteration i, access k goes to block i x 4 + k of it.
// After the P sections, each iteration has two regions of P blocks for the
// shared file pointer. So each offset and view displacement is
// `base + rank x S` (the trace stores it once for all ranks, docs/FORMAT.md
// §8.3) and the trace has the same size at any number of ranks.
//
// Every block read back is checked. Usage: mpiio_ranked [FILE [ITERS [keep]]]
// (default mpiio_ranked.dat, 2 iterations); the file is deleted at the end
// unless `keep` is given.
#include "mpi_test_util.h"

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

namespace {

const int N = 16; // ints per block
const MPI_Offset I = sizeof(int);
const MPI_Offset B = N * I;
const int kBlocksPerIteration = 4;

int value(int rank, int iteration, int access, int i) {
  return 1000000 * access + 10000 * iteration + 100 * rank + i;
}

void fill(std::vector<int> &v, int rank, int iteration, int access) {
  for (int i = 0; i < N; ++i)
    v[static_cast<size_t>(i)] = value(rank, iteration, access, i);
}

void expect(const std::vector<int> &got, int rank, int iteration, int access, const char *what) {
  for (int i = 0; i < N; ++i)
    CHECK(got[static_cast<size_t>(i)] == value(rank, iteration, access, i),
          "%s: iteration %d, element %d is %d, expected %d", what, iteration, i,
          got[static_cast<size_t>(i)], value(rank, iteration, access, i));
}

void expect_count(MPI_Status &st, int n, const char *what) {
  int count = -1;
  MPI_Get_count(&st, MPI_INT, &count);
  CHECK(count == n, "%s moved %d ints, expected %d", what, count, n);
}

// Makes every rank's writes visible to every rank (sync-barrier-sync).
void sync_all(MPI_File fh) {
  mpitest::check_success(MPI_File_sync(fh), "File_sync");
  MPI_Barrier(MPI_COMM_WORLD);
  mpitest::check_success(MPI_File_sync(fh), "File_sync");
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("mpiio_ranked");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const char *path = argc > 1 ? argv[1] : "mpiio_ranked.dat";
  const int iterations = argc > 2 ? std::atoi(argv[2]) : 2;
  CHECK(iterations >= 1, "ITERS must be at least 1");
  const MPI_Offset S = iterations * kBlocksPerIteration * B; // a rank's section
  const MPI_Offset mine = rank * S;
  const MPI_Offset shared = n * S; // the shared-pointer regions, after the sections

  MPI_File fh = MPI_FILE_NULL;
  mpitest::check_success(
      MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh),
      "File_open");
  mpitest::check_success(MPI_File_set_size(fh, 0), "File_set_size");

  std::vector<int> out(N), in(N);
  MPI_Status st;
  for (int it = 0; it < iterations; ++it) {
    const MPI_Offset block = mine + it * kBlocksPerIteration * B;
    mpitest::check_success(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                           "File_set_view");

    // 0: independent, explicit offsets.
    fill(out, rank, it, 0);
    mpitest::check_success(MPI_File_write_at(fh, block, out.data(), N, MPI_INT, &st),
                           "File_write_at");
    expect_count(st, N, "File_write_at");
    in.assign(N, -1);
    mpitest::check_success(MPI_File_read_at(fh, block, in.data(), N, MPI_INT, &st), "File_read_at");
    expect(in, rank, it, 0, "File_read_at");

    // 1: nonblocking, explicit offsets.
    fill(out, rank, it, 1);
    MPI_Request req;
    mpitest::check_success(MPI_File_iwrite_at(fh, block + B, out.data(), N, MPI_INT, &req),
                           "File_iwrite_at");
    MPI_Wait(&req, &st);
    expect_count(st, N, "File_iwrite_at");
    in.assign(N, -1);
    mpitest::check_success(MPI_File_iread_at(fh, block + B, in.data(), N, MPI_INT, &req),
                           "File_iread_at");
    MPI_Wait(&req, &st);
    expect(in, rank, it, 1, "File_iread_at");

    // 2: collective, through a view whose displacement follows the rank.
    mpitest::check_success(
        MPI_File_set_view(fh, block + 2 * B, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
        "File_set_view");
    fill(out, rank, it, 2);
    mpitest::check_success(MPI_File_write_all(fh, out.data(), N, MPI_INT, &st), "File_write_all");
    expect_count(st, N, "File_write_all");
    sync_all(fh); // a collective write may go through another process
    mpitest::check_success(MPI_File_seek(fh, 0, MPI_SEEK_SET), "File_seek");
    in.assign(N, -1);
    mpitest::check_success(MPI_File_read_all(fh, in.data(), N, MPI_INT, &st), "File_read_all");
    expect(in, rank, it, 2, "File_read_all");
    in.assign(N, -1);
    mpitest::check_success(MPI_File_read_at_all(fh, 0, in.data(), N, MPI_INT, &st),
                           "File_read_at_all");
    expect(in, rank, it, 2, "File_read_at_all");

    // 3: split collective, the view one block further.
    mpitest::check_success(
        MPI_File_set_view(fh, block + 3 * B, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
        "File_set_view");
    fill(out, rank, it, 3);
    mpitest::check_success(MPI_File_write_at_all_begin(fh, 0, out.data(), N, MPI_INT),
                           "File_write_at_all_begin");
    mpitest::check_success(MPI_File_write_at_all_end(fh, out.data(), &st), "File_write_at_all_end");
    sync_all(fh);
    in.assign(N, -1);
    mpitest::check_success(MPI_File_read_all_begin(fh, in.data(), N, MPI_INT),
                           "File_read_all_begin");
    mpitest::check_success(MPI_File_read_all_end(fh, in.data(), &st), "File_read_all_end");
    expect(in, rank, it, 3, "File_read_all_begin/end");

    // The shared file pointer: a view every rank shares (set_view resets
    // the shared pointer to its start).
    const MPI_Offset region = shared + it * 2 * n * B;
    mpitest::check_success(MPI_File_set_view(fh, region, MPI_INT, MPI_INT, "native", MPI_INFO_NULL),
                           "File_set_view");
    // Ordered: rank r's block is block r of the region.
    fill(out, rank, it, 4);
    mpitest::check_success(MPI_File_write_ordered(fh, out.data(), N, MPI_INT, &st),
                           "File_write_ordered");
    expect_count(st, N, "File_write_ordered");
    sync_all(fh);
    mpitest::check_success(MPI_File_seek_shared(fh, 0, MPI_SEEK_SET), "File_seek_shared");
    in.assign(N, -1);
    mpitest::check_success(MPI_File_read_ordered(fh, in.data(), N, MPI_INT, &st),
                           "File_read_ordered");
    expect(in, rank, it, 4, "File_read_ordered");
    // Independent: the blocks land in some order, each whole; the next P
    // blocks of the region (the shared pointer is past the ordered ones).
    fill(out, rank, it, 5);
    mpitest::check_success(MPI_File_write_shared(fh, out.data(), N, MPI_INT, &st),
                           "File_write_shared");
    expect_count(st, N, "File_write_shared");
    sync_all(fh);
    std::vector<int> all(static_cast<size_t>(n) * N, -1);
    mpitest::check_success(
        MPI_File_read_at(fh, static_cast<MPI_Offset>(n) * N, all.data(), n * N, MPI_INT, &st),
        "File_read_at");
    std::set<int> writers;
    for (int b = 0; b < n; ++b) {
      const int w = (all[static_cast<size_t>(b) * N] % 10000) / 100;
      CHECK(w >= 0 && w < n, "File_write_shared: block %d starts with %d", b,
            all[static_cast<size_t>(b) * N]);
      writers.insert(w);
      for (int i = 0; i < N; ++i)
        CHECK(all[static_cast<size_t>(b * N + i)] == value(w, it, 5, i),
              "File_write_shared: block %d, element %d is %d", b, i,
              all[static_cast<size_t>(b * N + i)]);
    }
    CHECK(static_cast<int>(writers.size()) == n, "File_write_shared: %d distinct blocks of %d",
          static_cast<int>(writers.size()), n);
    MPI_Barrier(MPI_COMM_WORLD); // every rank read the region before the next view
  }

  // Every rank's section, read whole by its right neighbor through a byte
  // view: what each access wrote is where the layout says.
  mpitest::check_success(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
                         "File_set_view");
  sync_all(fh);
  const int other = (rank + 1) % n;
  std::vector<int> section(static_cast<size_t>(iterations) * kBlocksPerIteration * N, -1);
  mpitest::check_success(MPI_File_read_at(fh, other * S, section.data(),
                                          static_cast<int>(section.size()), MPI_INT, &st),
                         "File_read_at");
  for (int it = 0; it < iterations; ++it)
    for (int k = 0; k < kBlocksPerIteration; ++k)
      for (int i = 0; i < N; ++i) {
        const int got = section[static_cast<size_t>((it * kBlocksPerIteration + k) * N + i)];
        CHECK(got == value(other, it, k, i), "rank %d's section: iteration %d, block %d, %d is %d",
              other, it, k, i, got);
      }

  mpitest::check_success(MPI_File_close(&fh), "File_close");
  MPI_Barrier(MPI_COMM_WORLD);
  const bool keep = argc > 3 && std::string(argv[3]) == "keep";
  if (rank == 0 && !keep)
    mpitest::check_success(MPI_File_delete(path, MPI_INFO_NULL), "File_delete");
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
