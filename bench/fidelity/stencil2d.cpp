// Fidelity benchmark: a 2-D Jacobi stencil with a real compute kernel.
//
// A periodic global grid distributed block-wise (L x L points per rank, two
// arrays: 2 x 320 KB for the default L = 200) over the process grid of
// MPI_Dims_create. Each iteration exchanges the four halos with
// Irecv/Isend/Waitall (columns through pack buffers), applies the 5-point
// Jacobi update, and every R iterations reduces the residual with
// MPI_Allreduce.
//
// Self-check: the initial field is the Fourier mode
// cos(2 pi i / NX) cos(2 pi j / NY), which the periodic Jacobi update
// multiplies by lambda = (cos(2 pi / NX) + cos(2 pi / NY)) / 2 each step. So
// every reduced residual must be (lambda - 1)^2 lambda^(2(n-1)) NX NY / 4 and
// after N iterations every point must be lambda^N times its start value;
// any error in a halo breaks both.
//
// Usage: stencil2d [-n ITER] [-s L] [-r R]  (defaults 4000, 200, 10)
#include "fidelity_check.h"

#include <cmath>
#include <utility>
#include <vector>

namespace {

enum { TAG_NORTHWARD = 1, TAG_SOUTHWARD, TAG_WESTWARD, TAG_EASTWARD };

const double kPi = 3.14159265358979323846;

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fidelity::g_name = "stencil2d";
  const char *const names[] = {"-n", "-s", "-r"};
  long opt[] = {4000, 200, 10};
  fidelity::parse_options(argc, argv, 3, names, opt);
  const int iters = int(opt[0]), L = int(opt[1]), every = int(opt[2]);
  if (L < 2 || every < 1)
    fidelity::fail("-s must be at least 2 and -r at least 1");

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  const int px = dims[0], py = dims[1];
  const int cx = rank / py, cy = rank % py;
  const int north = ((cx + px - 1) % px) * py + cy, south = ((cx + 1) % px) * py + cy;
  const int west = cx * py + (cy + py - 1) % py, east = cx * py + (cy + 1) % py;

  const int W = L + 2;
  const long NX = long(px) * L, NY = long(py) * L;
  const double alpha = 2 * kPi / double(NX), beta = 2 * kPi / double(NY);
  const double lambda = (std::cos(alpha) + std::cos(beta)) / 2;
  auto mode = [&](int i, int j) {  // local interior (i, j) in 1..L
    return std::cos(alpha * double(cx * L + i - 1)) * std::cos(beta * double(cy * L + j - 1));
  };
  std::vector<double> u(size_t(W) * W, 0.0), v(u.size(), 0.0);
  auto at = [W](std::vector<double> &g, int i, int j) -> double & { return g[size_t(i) * W + j]; };
  for (int i = 1; i <= L; ++i)
    for (int j = 1; j <= L; ++j)
      at(u, i, j) = mode(i, j);
  std::vector<double> send_w(L), send_e(L), recv_w(L), recv_e(L);

  double local = 0;
  for (int it = 1; it <= iters; ++it) {
    MPI_Request reqs[8];
    MPI_Irecv(&at(u, 0, 1), L, MPI_DOUBLE, north, TAG_SOUTHWARD, MPI_COMM_WORLD, &reqs[0]);
    MPI_Irecv(&at(u, L + 1, 1), L, MPI_DOUBLE, south, TAG_NORTHWARD, MPI_COMM_WORLD, &reqs[1]);
    MPI_Irecv(recv_w.data(), L, MPI_DOUBLE, west, TAG_EASTWARD, MPI_COMM_WORLD, &reqs[2]);
    MPI_Irecv(recv_e.data(), L, MPI_DOUBLE, east, TAG_WESTWARD, MPI_COMM_WORLD, &reqs[3]);
    for (int i = 0; i < L; ++i) {
      send_w[i] = at(u, i + 1, 1);
      send_e[i] = at(u, i + 1, L);
    }
    MPI_Isend(&at(u, 1, 1), L, MPI_DOUBLE, north, TAG_NORTHWARD, MPI_COMM_WORLD, &reqs[4]);
    MPI_Isend(&at(u, L, 1), L, MPI_DOUBLE, south, TAG_SOUTHWARD, MPI_COMM_WORLD, &reqs[5]);
    MPI_Isend(send_w.data(), L, MPI_DOUBLE, west, TAG_WESTWARD, MPI_COMM_WORLD, &reqs[6]);
    MPI_Isend(send_e.data(), L, MPI_DOUBLE, east, TAG_EASTWARD, MPI_COMM_WORLD, &reqs[7]);
    MPI_Waitall(8, reqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < L; ++i) {
      at(u, i + 1, 0) = recv_w[i];
      at(u, i + 1, L + 1) = recv_e[i];
    }
    // The Jacobi update: the compute kernel.
    local = 0;
    for (int i = 1; i <= L; ++i) {
      const double *up = &at(u, i - 1, 0), *mid = &at(u, i, 0), *down = &at(u, i + 1, 0);
      double *out = &at(v, i, 0);
      for (int j = 1; j <= L; ++j) {
        const double nv = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1]);
        const double d = nv - mid[j];
        local += d * d;
        out[j] = nv;
      }
    }
    std::swap(u, v);
    if (it % every == 0) {
      double global = 0;
      MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      const double want =
          (lambda - 1) * (lambda - 1) * std::pow(lambda, 2.0 * (it - 1)) * double(NX * NY) / 4;
      if (!(std::fabs(global - want) <= 1e-6 * want))
        fidelity::fail("iteration %d: residual %.17g, expected %.17g", it, global, want);
    }
  }
  const double scale = std::pow(lambda, double(iters));
  for (int i = 1; i <= L; ++i)
    for (int j = 1; j <= L; ++j)
      if (!(std::fabs(at(u, i, j) - scale * mode(i, j)) <= 1e-8 * scale))
        fidelity::fail("point (%d, %d): %.17g, expected %.17g", i, j, at(u, i, j),
                       scale * mode(i, j));
  MPI_Finalize();
  if (rank == 0)
    std::printf("stencil2d: OK (%d ranks, %d iterations, %d x %d points per rank)\n", size, iters,
                L, L);
  return 0;
}
