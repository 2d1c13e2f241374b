// halo2d: the demo workload of the test corpus.
//
// A 2-D Jacobi iteration on a global grid distributed block-wise over a
// process grid built with MPI_Dims_create.  Neighbors are computed explicitly
// on MPI_COMM_WORLD (5-point stencil, non-periodic: MPI_PROC_NULL at the
// edges of the process grid).  Each iteration exchanges halo rows/columns
// with Isend/Irecv/Waitall, applies the Jacobi update and reduces the
// residual and the checksum of the grid with MPI_Allreduce.
//
// Every rank recomputes the whole grid serially and checks the reduced values
// of every iteration as well as its own block after the last iteration.
//
// Usage: halo2d [-n ITER] [-s LOCALSIZE]   (defaults: 20 iterations, 16x16)
// Works for any number of ranks >= 1.
#include "mpi_test_util.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace {

// Tags name the direction in which a halo travels.
enum { TAG_NORTHWARD = 1, TAG_SOUTHWARD = 2, TAG_WESTWARD = 3, TAG_EASTWARD = 4 };

// Initial value of interior point (gi, gj) of the global grid.
double initial_value(int gi, int gj) { return double((gi * 7 + gj * 13) % 17) - 8.0; }

// Fixed (Dirichlet) value of the boundary point (gi, gj) just outside the
// global grid of nx rows and ny columns.
double boundary_value(int gi, int gj, int nx, int ny) {
  if (gi < 0) return 100.0 + gj;
  if (gi >= nx) return -20.0;
  if (gj < 0) return 10.0 + 0.5 * gi;
  (void)ny;
  return 3.0 * gi;
}

struct Sums {
  double residual;  // sum over the grid of (new - old)^2
  double checksum;  // sum over the grid of new values
};

// Serial reference: the whole (nx x ny) grid with a ring of boundary cells.
class SerialGrid {
 public:
  SerialGrid(int nx, int ny) : nx_(nx), ny_(ny), u_((nx + 2) * (ny + 2)), v_(u_.size()) {
    for (int i = -1; i <= nx; ++i) {
      for (int j = -1; j <= ny; ++j) {
        const bool inside = i >= 0 && i < nx && j >= 0 && j < ny;
        at(u_, i, j) = inside ? initial_value(i, j) : boundary_value(i, j, nx, ny);
      }
    }
    v_ = u_;
  }

  Sums step() {
    Sums s{0.0, 0.0};
    for (int i = 0; i < nx_; ++i) {
      for (int j = 0; j < ny_; ++j) {
        const double nv =
            0.25 * (at(u_, i - 1, j) + at(u_, i + 1, j) + at(u_, i, j - 1) + at(u_, i, j + 1));
        const double d = nv - at(u_, i, j);
        s.residual += d * d;
        s.checksum += nv;
        at(v_, i, j) = nv;
      }
    }
    std::swap(u_, v_);
    return s;
  }

  double value(int i, int j) const { return u_[(i + 1) * (ny_ + 2) + (j + 1)]; }

 private:
  double &at(std::vector<double> &g, int i, int j) { return g[(i + 1) * (ny_ + 2) + (j + 1)]; }
  int nx_, ny_;
  std::vector<double> u_, v_;
};

int parse_count(const char *text, const char *opt, long min) {
  char *end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < min || v > 100000)
    mpitest::fail("invalid value '%s' for %s", text, opt);
  return int(v);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("halo2d");

  int iters = 20, local = 16;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if ((arg == "-n" || arg == "-s") && a + 1 < argc) {
      if (arg == "-n")
        iters = parse_count(argv[++a], "-n", 0);
      else
        local = parse_count(argv[++a], "-s", 1);
    } else {
      mpitest::fail("unknown argument '%s' (usage: halo2d [-n ITER] [-s LOCALSIZE])",
                    arg.c_str());
    }
  }

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Process grid: px rows x py columns, ranks in row-major order.
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int px = dims[0], py = dims[1];
  CHECK(px * py == size && px >= py, "MPI_Dims_create(%d) gave %d x %d", size, px, py);
  const int cx = rank / py, cy = rank % py;
  const int north = cx > 0 ? rank - py : MPI_PROC_NULL;
  const int south = cx < px - 1 ? rank + py : MPI_PROC_NULL;
  const int west = cy > 0 ? rank - 1 : MPI_PROC_NULL;
  const int east = cy < py - 1 ? rank + 1 : MPI_PROC_NULL;

  const int L = local, W = L + 2;  // local block LxL plus one ghost layer
  const int nx = px * L, ny = py * L;
  const int gi0 = cx * L, gj0 = cy * L;  // global index of local (1,1)
  std::vector<double> u(W * W, 0.0), v(W * W, 0.0);
  auto idx = [W](int i, int j) { return i * W + j; };
  for (int i = 0; i < W; ++i) {
    for (int j = 0; j < W; ++j) {
      const int gi = gi0 + i - 1, gj = gj0 + j - 1;
      const bool inside = gi >= 0 && gi < nx && gj >= 0 && gj < ny;
      u[idx(i, j)] = inside ? initial_value(gi, gj) : boundary_value(gi, gj, nx, ny);
    }
  }
  v = u;

  SerialGrid reference(nx, ny);
  std::vector<double> send_w(L), send_e(L), recv_w(L), recv_e(L);

  for (int it = 0; it < iters; ++it) {
    // Halo exchange.  Ghost rows are contiguous and received in place; the
    // columns go through pack buffers.
    MPI_Request reqs[8];
    MPI_Irecv(&u[idx(0, 1)], L, MPI_DOUBLE, north, TAG_SOUTHWARD, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&u[idx(L + 1, 1)], L, MPI_DOUBLE, south, TAG_NORTHWARD, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(recv_w.data(), L, MPI_DOUBLE, west, TAG_EASTWARD, MPI_COMM_WORLD, &reqs[2]);
    MPI_Irecv(recv_e.data(), L, MPI_DOUBLE, east, TAG_WESTWARD, MPI_COMM_WORLD, &reqs[3]);
    for (int i = 0; i < L; ++i) {
      send_w[i] = u[idx(i + 1, 1)];
      send_e[i] = u[idx(i + 1, L)];
    }
    MPI_Isend(&u[idx(1, 1)], L, MPI_DOUBLE, north, TAG_NORTHWARD, MPI_COMM_WORLD, &reqs[4]);
    MPI_Isend(&u[idx(L, 1)], L, MPI_DOUBLE, south, TAG_SOUTHWARD, MPI_COMM_WORLD, &reqs[5]);
    MPI_Isend(send_w.data(), L, MPI_DOUBLE, west, TAG_WESTWARD, MPI_COMM_WORLD, &reqs[6]);
    MPI_Isend(send_e.data(), L, MPI_DOUBLE, east, TAG_EASTWARD, MPI_COMM_WORLD, &reqs[7]);
    MPI_Status st[8];
    MPI_Waitall(8, reqs, st);

    const int peer[4] = {north, south, west, east};
    const int tag[4] = {TAG_SOUTHWARD, TAG_NORTHWARD, TAG_EASTWARD, TAG_WESTWARD};
    for (int k = 0; k < 4; ++k) {
      if (peer[k] == MPI_PROC_NULL) {
        // Only the count is checked: MPICH up to 4.1 leaves MPI_SOURCE and
        // MPI_TAG at 0 for a nonblocking receive from MPI_PROC_NULL
        // (pmodels/mpich#6805).
        int count = -1;
        MPI_Get_count(&st[k], MPI_DOUBLE, &count);
        CHECK(count == 0, "iteration %d: receive %d from MPI_PROC_NULL has count %d", it, k,
              count);
      } else {
        CHECK_STATUS(st[k], MPI_DOUBLE, peer[k], tag[k], L, "halo receive");
      }
    }
    if (west != MPI_PROC_NULL)
      for (int i = 0; i < L; ++i) u[idx(i + 1, 0)] = recv_w[i];
    if (east != MPI_PROC_NULL)
      for (int i = 0; i < L; ++i) u[idx(i + 1, L + 1)] = recv_e[i];

    // Jacobi update of the interior; ghost cells of v keep the boundary.
    double local_sums[2] = {0.0, 0.0};
    for (int i = 1; i <= L; ++i) {
      for (int j = 1; j <= L; ++j) {
        const double nv =
            0.25 * (u[idx(i - 1, j)] + u[idx(i + 1, j)] + u[idx(i, j - 1)] + u[idx(i, j + 1)]);
        const double d = nv - u[idx(i, j)];
        local_sums[0] += d * d;
        local_sums[1] += nv;
        v[idx(i, j)] = nv;
      }
    }
    // Ghost cells of v facing a neighbor are refreshed by the next exchange;
    // those at the global boundary were initialised identically in u and v.
    std::swap(u, v);

    double global_sums[2] = {0.0, 0.0};
    MPI_Allreduce(local_sums, global_sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    const Sums want = reference.step();
    CHECK(mpitest::close_to(global_sums[0], want.residual, 1e-10),
          "iteration %d: residual %.17g, expected %.17g", it, global_sums[0], want.residual);
    CHECK(mpitest::close_to(global_sums[1], want.checksum, 1e-10),
          "iteration %d: checksum %.17g, expected %.17g", it, global_sums[1], want.checksum);
  }

  // The local block must match the serial grid point by point.
  for (int i = 1; i <= L; ++i) {
    for (int j = 1; j <= L; ++j) {
      const double want = reference.value(gi0 + i - 1, gj0 + j - 1);
      CHECK(mpitest::close_to(u[idx(i, j)], want, 1e-12),
            "after %d iterations: u(%d,%d) = %.17g, expected %.17g", iters, gi0 + i - 1,
            gj0 + j - 1, u[idx(i, j)], want);
    }
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
