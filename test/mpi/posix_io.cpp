// POSIX I/O beside MPI (README "POSIX I/O"): every rank writes its own
// checkpoint file ckpt-<step>-<rank>.dat with pwrite at every step and
// reads it back with pread; with -a, the program also makes every other
// intercepted call once (open64, openat, openat64, read, write, lseek,
// lseek64, pread64, pwrite64, fsync, fopen, fopen64, fwrite, fread,
// fclose), and writes a shared file through MPI-IO, whose own writes
// (inside MPI calls) are not the program's.
//
//   posix_io DIR [-s STEPS] [-b BYTES] [-a]
//
// Works in DIR (chdir after MPI_Init), with names relative to it, as a
// program run in its output directory does: the names in the trace are then
// the same wherever it runs, and the proxy writes the same names in its own
// directory. Checks what it reads back; prints "posix_io: OK".
#include "mpi_test_util.h"

#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::string ckpt_name(int step, int rank) {
  char name[64];
  std::snprintf(name, sizeof name, "ckpt-%04d-rank%d.dat", step, rank);
  return name;
}

void fill(std::vector<char> &b, int step, int rank) {
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<char>((step * 31 + rank * 7 + static_cast<int>(i)) & 0x7f);
}

void checkpoints(int rank, int steps, size_t bytes) {
  std::vector<char> out(bytes), in(bytes);
  for (int step = 0; step < steps; ++step) {
    fill(out, step, rank);
    const std::string name = ckpt_name(step, rank);
    const int fd = open(name.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0)
      mpitest::fail("open %s: %s", name.c_str(), std::strerror(errno));
    if (pwrite(fd, out.data(), bytes, 0) != static_cast<ssize_t>(bytes))
      mpitest::fail("pwrite %s", name.c_str());
    if (pread(fd, in.data(), bytes, 0) != static_cast<ssize_t>(bytes) || in != out)
      mpitest::fail("read back %s", name.c_str());
    if (close(fd) != 0)
      mpitest::fail("close %s", name.c_str());
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

void every_call(int rank) {
  const std::string a = "every-" + std::to_string(rank) + ".dat";
  const char text[] = "0123456789abcdef";
  char back[sizeof text] = {};
  int fd = open64(a.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0644);
  if (fd < 0 || write(fd, text, 16) != 16 || lseek(fd, 0, SEEK_SET) != 0 ||
      read(fd, back, 16) != 16 || std::memcmp(back, text, 16) != 0 ||
      pwrite64(fd, text, 4, 16) != 4 || pread64(fd, back, 4, 16) != 4 ||
      std::memcmp(back, text, 4) != 0 || lseek64(fd, 0, SEEK_END) != 20 || fsync(fd) != 0 ||
      close(fd) != 0)
    mpitest::fail("descriptor calls on %s", a.c_str());
  fd = openat(AT_FDCWD, a.c_str(), O_RDONLY);
  const int fd2 = openat64(AT_FDCWD, a.c_str(), O_RDONLY);
  if (fd < 0 || fd2 < 0 || close(fd) != 0 || close(fd2) != 0)
    mpitest::fail("openat on %s", a.c_str());
  FILE *f = std::fopen(a.c_str(), "w");
  if (!f || std::fwrite(text, 1, 16, f) != 16 || std::fclose(f) != 0)
    mpitest::fail("fopen/fwrite/fclose on %s", a.c_str());
  f = fopen64(a.c_str(), "r");
  if (!f || std::fread(back, 4, 4, f) != 4 || std::memcmp(back, text, 16) != 0 ||
      std::fclose(f) != 0)
    mpitest::fail("fopen64/fread/fclose on %s", a.c_str());

  // MPI-IO: the library's own opens and writes are inside MPI calls.
  MPI_File fh;
  const std::string shared = "shared.dat";
  if (MPI_File_open(MPI_COMM_WORLD, shared.c_str(), MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL,
                    &fh) != MPI_SUCCESS)
    mpitest::fail("MPI_File_open %s", shared.c_str());
  MPI_File_write_at(fh, rank * 16, text, 16, MPI_CHAR, MPI_STATUS_IGNORE);
  MPI_File_close(&fh);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("posix_io");
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (argc < 2)
    mpitest::fail("usage: posix_io DIR [-s STEPS] [-b BYTES] [-a]");
  const std::string dir = argv[1];
  if (chdir(dir.c_str()) != 0)
    mpitest::fail("chdir %s: %s", dir.c_str(), std::strerror(errno));
  int steps = 3;
  size_t bytes = 4096;
  bool all = false;
  for (int i = 2; i < argc; ++i) {
    if (!std::strcmp(argv[i], "-s") && i + 1 < argc)
      steps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "-b") && i + 1 < argc)
      bytes = static_cast<size_t>(std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "-a"))
      all = true;
    else
      mpitest::fail("unknown argument %s", argv[i]);
  }
  checkpoints(rank, steps, bytes);
  if (all)
    every_call(rank);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
