// halo3d: a 3-D 7-point periodic stencil, the scale workload of issue 4.
//
// An explicit diffusion step on a periodic global grid distributed block-wise
// over a px x py x pz process grid built with MPI_Dims_create (8 ranks give
// 2x2x2, 27 give 3x3x3).  Neighbors are computed explicitly on
// MPI_COMM_WORLD; the grid wraps around in every dimension, so every rank has
// six neighbors (itself where a dimension has one process, the same rank
// twice where it has two: the tags tell the two halos apart).  Each iteration
// packs the six faces, exchanges them with Irecv/Isend/Waitall, applies
// the update and reduces the residual and the checksum of the grid with
// MPI_Allreduce.  Counts, tags and datatypes are the same on every rank, so
// ranks differ only in the peers of the halo exchange.
//
// Every rank recomputes the whole grid serially and checks the reduced values
// of every iteration (the checksum is also conserved: a periodic diffusion
// neither gains nor loses mass) and its own block after the last iteration.
//
// With -c the program does what most periodic stencils do: it builds a
// periodic MPI_Cart_create grid (no reordering), finds its neighbors with
// MPI_Cart_shift and exchanges halos on the grid communicator; the neighbors
// are checked against the explicit ones.
//
// Usage: halo3d [-c] [-n ITER] [-s LOCALSIZE]   (defaults: 10 iterations, 6x6x6)
// Works for any number of ranks >= 1.
#include "mpi_test_util.h"

#include <string>
#include <utility>
#include <vector>

namespace {

// Tags name the direction in which a halo travels: axis * 2 + (0 toward the
// lower neighbor, 1 toward the upper one), plus one.
int travel_tag(int axis, int up) { return 1 + axis * 2 + up; }

// Initial value of point (gi, gj, gk) of the global grid.
double initial_value(int gi, int gj, int gk) {
  return double((gi * 7 + gj * 13 + gk * 5) % 17) - 8.0;
}

// The update of one point from its value and its six neighbors, written once
// so that the distributed and the serial grids round identically.
double update(double c, double xm, double xp, double ym, double yp, double zm, double zp) {
  return 0.25 * c + 0.125 * ((xm + xp) + (ym + yp) + (zm + zp));
}

struct Sums {
  double residual; // sum over the grid of (new - old)^2
  double checksum; // sum over the grid of new values
};

// Serial reference: the whole periodic (nx x ny x nz) grid.
class SerialGrid {
public:
  SerialGrid(int nx, int ny, int nz) : n_{nx, ny, nz}, u_(size_t(nx) * ny * nz), v_(u_.size()) {
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int k = 0; k < nz; ++k)
          u_[at(i, j, k)] = initial_value(i, j, k);
  }

  double total() const {
    double s = 0.0;
    for (double x : u_)
      s += x;
    return s;
  }

  Sums step() {
    Sums s{0.0, 0.0};
    for (int i = 0; i < n_[0]; ++i) {
      for (int j = 0; j < n_[1]; ++j) {
        for (int k = 0; k < n_[2]; ++k) {
          const double c = u_[at(i, j, k)];
          const double nv = update(c, u_[at(i - 1, j, k)], u_[at(i + 1, j, k)], u_[at(i, j - 1, k)],
                                   u_[at(i, j + 1, k)], u_[at(i, j, k - 1)], u_[at(i, j, k + 1)]);
          const double d = nv - c;
          s.residual += d * d;
          s.checksum += nv;
          v_[at(i, j, k)] = nv;
        }
      }
    }
    std::swap(u_, v_);
    return s;
  }

  double value(int i, int j, int k) const { return u_[at(i, j, k)]; }

private:
  // Index of (i, j, k), wrapping around by at most one grid length.
  size_t at(int i, int j, int k) const {
    i = (i + n_[0]) % n_[0];
    j = (j + n_[1]) % n_[1];
    k = (k + n_[2]) % n_[2];
    return (size_t(i) * n_[1] + j) * n_[2] + k;
  }
  int n_[3];
  std::vector<double> u_, v_;
};

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("halo3d");

  int iters = 10, local = 6;
  bool cartesian = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-c") {
      cartesian = true;
    } else if (arg == "-n" && a + 1 < argc) {
      iters = mpitest::parse_count(argv[++a], "-n", 0);
    } else if (arg == "-s" && a + 1 < argc) {
      local = mpitest::parse_count(argv[++a], "-s", 1);
    } else {
      mpitest::fail("unknown argument '%s' (usage: halo3d [-c] [-n ITER] [-s LOCALSIZE])",
                    arg.c_str());
    }
  }

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  // Process grid p[0] x p[1] x p[2], ranks in row-major order (as MPI_Cart_create
  // would number them), and the periodic neighbors on each axis.
  int p[3] = {0, 0, 0};
  MPI_Dims_create(size, 3, p);
  CHECK(p[0] * p[1] * p[2] == size, "MPI_Dims_create(%d) gave %d x %d x %d", size, p[0], p[1],
        p[2]);
  const int c[3] = {rank / (p[1] * p[2]), (rank / p[2]) % p[1], rank % p[2]};
  auto rank_of = [&p](int x, int y, int z) {
    return ((x + p[0]) % p[0] * p[1] + (y + p[1]) % p[1]) * p[2] + (z + p[2]) % p[2];
  };
  // neighbor[axis][0] is the lower neighbor on that axis, [axis][1] the upper.
  int neighbor[3][2];
  for (int axis = 0; axis < 3; ++axis) {
    for (int up = 0; up < 2; ++up) {
      int q[3] = {c[0], c[1], c[2]};
      q[axis] += up ? 1 : -1;
      neighbor[axis][up] = rank_of(q[0], q[1], q[2]);
    }
  }
  MPI_Comm comm = MPI_COMM_WORLD;
  if (cartesian) {
    const int periods[3] = {1, 1, 1};
    MPI_Cart_create(MPI_COMM_WORLD, 3, p, periods, 0, &comm);
    int grid_rank = -1;
    MPI_Comm_rank(comm, &grid_rank);
    CHECK(grid_rank == rank, "MPI_Cart_create without reordering moved rank %d to %d", rank,
          grid_rank);
    for (int axis = 0; axis < 3; ++axis) {
      int lower = -1, upper = -1;
      MPI_Cart_shift(comm, axis, 1, &lower, &upper);
      CHECK(lower == neighbor[axis][0] && upper == neighbor[axis][1],
            "MPI_Cart_shift on axis %d gave %d and %d, expected %d and %d", axis, lower, upper,
            neighbor[axis][0], neighbor[axis][1]);
    }
  }

  const int L = local, W = L + 2;                   // local block LxLxL plus one ghost layer
  const int g0[3] = {c[0] * L, c[1] * L, c[2] * L}; // global index of local (1,1,1)
  std::vector<double> u(size_t(W) * W * W, 0.0), v(u.size(), 0.0);
  auto idx = [W](int i, int j, int k) { return (size_t(i) * W + j) * W + k; };
  for (int i = 1; i <= L; ++i)
    for (int j = 1; j <= L; ++j)
      for (int k = 1; k <= L; ++k)
        u[idx(i, j, k)] = initial_value(g0[0] + i - 1, g0[1] + j - 1, g0[2] + k - 1);

  // Index of point (a, b) of the layer `plane` across `axis`.
  auto face = [&idx](int axis, int plane, int a, int b) {
    if (axis == 0)
      return idx(plane, a + 1, b + 1);
    if (axis == 1)
      return idx(a + 1, plane, b + 1);
    return idx(a + 1, b + 1, plane);
  };

  SerialGrid reference(p[0] * L, p[1] * L, p[2] * L);
  const double mass = reference.total();
  const int F = L * L; // points per face
  // Buffer 2*axis+up holds the face sent toward / received from neighbor[axis][up].
  std::vector<std::vector<double>> send(6, std::vector<double>(F)), recv(6, std::vector<double>(F));

  for (int it = 0; it < iters; ++it) {
    MPI_Request reqs[12];
    // A halo received from the upper neighbor travelled downward, and so on.
    for (int axis = 0; axis < 3; ++axis)
      for (int up = 0; up < 2; ++up)
        MPI_Irecv(recv[2 * axis + up].data(), F, MPI_DOUBLE, neighbor[axis][up],
                  travel_tag(axis, 1 - up), comm, &reqs[2 * axis + up]);
    for (int axis = 0; axis < 3; ++axis) {
      for (int up = 0; up < 2; ++up) {
        std::vector<double> &buf = send[2 * axis + up];
        const int plane = up ? L : 1;
        for (int a = 0; a < L; ++a)
          for (int b = 0; b < L; ++b)
            buf[a * L + b] = u[face(axis, plane, a, b)];
        MPI_Isend(buf.data(), F, MPI_DOUBLE, neighbor[axis][up], travel_tag(axis, up), comm,
                  &reqs[6 + 2 * axis + up]);
      }
    }
    MPI_Status st[12];
    MPI_Waitall(12, reqs, st);

    for (int axis = 0; axis < 3; ++axis) {
      for (int up = 0; up < 2; ++up) {
        CHECK_STATUS(st[2 * axis + up], MPI_DOUBLE, neighbor[axis][up], travel_tag(axis, 1 - up), F,
                     "halo receive");
        const std::vector<double> &buf = recv[2 * axis + up];
        const int plane = up ? L + 1 : 0;
        for (int a = 0; a < L; ++a)
          for (int b = 0; b < L; ++b)
            u[face(axis, plane, a, b)] = buf[a * L + b];
      }
    }

    double local_sums[2] = {0.0, 0.0};
    for (int i = 1; i <= L; ++i) {
      for (int j = 1; j <= L; ++j) {
        for (int k = 1; k <= L; ++k) {
          const double cur = u[idx(i, j, k)];
          const double nv =
              update(cur, u[idx(i - 1, j, k)], u[idx(i + 1, j, k)], u[idx(i, j - 1, k)],
                     u[idx(i, j + 1, k)], u[idx(i, j, k - 1)], u[idx(i, j, k + 1)]);
          const double d = nv - cur;
          local_sums[0] += d * d;
          local_sums[1] += nv;
          v[idx(i, j, k)] = nv;
        }
      }
    }
    // Every ghost cell of v is refreshed by the next exchange.
    std::swap(u, v);

    double global_sums[2] = {0.0, 0.0};
    MPI_Allreduce(local_sums, global_sums, 2, MPI_DOUBLE, MPI_SUM, comm);

    const Sums want = reference.step();
    CHECK(mpitest::close_to(global_sums[0], want.residual, 1e-10),
          "iteration %d: residual %.17g, expected %.17g", it, global_sums[0], want.residual);
    CHECK(mpitest::close_to(global_sums[1], want.checksum, 1e-10),
          "iteration %d: checksum %.17g, expected %.17g", it, global_sums[1], want.checksum);
    CHECK(mpitest::close_to(global_sums[1], mass, 1e-10),
          "iteration %d: checksum %.17g, but the initial mass was %.17g", it, global_sums[1], mass);
  }

  // The local block must match the serial grid point by point.
  for (int i = 1; i <= L; ++i)
    for (int j = 1; j <= L; ++j)
      for (int k = 1; k <= L; ++k) {
        const int gi = g0[0] + i - 1, gj = g0[1] + j - 1, gk = g0[2] + k - 1;
        const double want = reference.value(gi, gj, gk);
        CHECK(mpitest::close_to(u[idx(i, j, k)], want, 1e-12),
              "after %d iterations: u(%d,%d,%d) = %.17g, expected %.17g", iters, gi, gj, gk,
              u[idx(i, j, k)], want);
      }

  if (comm != MPI_COMM_WORLD)
    MPI_Comm_free(&comm);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
