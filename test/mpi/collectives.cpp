// collectives: every blocking collective operation on MPI_COMM_WORLD.
//
// MPI_Barrier, MPI_Bcast, MPI_Gather, MPI_Gatherv, MPI_Scatter,
// MPI_Scatterv, MPI_Allgather (MPI_IN_PLACE), MPI_Allgatherv, MPI_Alltoall,
// MPI_Alltoallv, MPI_Alltoallw, MPI_Reduce (also MPI_IN_PLACE at the root),
// MPI_Allreduce (predefined ops, MAXLOC, MPI_IN_PLACE, user ops),
// MPI_Reduce_scatter, MPI_Reduce_scatter_block, MPI_Scan, MPI_Exscan,
// MPI_Reduce_local, and user-defined operations (MPI_Op_create,
// MPI_Op_commutative, MPI_Op_free): a commutative one and a non-commutative
// one (2x2 matrix product) whose result depends on the rank order.
// Runs with 1 or more ranks (the brief uses 2-4).
#include "mpi_test_util.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace {

const long long MOD = 1000003;

struct Mat {
  long long a[4];  // row-major 2x2
};

Mat mat_of_rank(int r) { return Mat{{r + 1, 1, r, 2}}; }

Mat mat_mul(const Mat &x, const Mat &y) {
  Mat z;
  z.a[0] = (x.a[0] * y.a[0] + x.a[1] * y.a[2]) % MOD;
  z.a[1] = (x.a[0] * y.a[1] + x.a[1] * y.a[3]) % MOD;
  z.a[2] = (x.a[2] * y.a[0] + x.a[3] * y.a[2]) % MOD;
  z.a[3] = (x.a[2] * y.a[1] + x.a[3] * y.a[3]) % MOD;
  return z;
}

// Product M_lo * ... * M_hi (inclusive).
Mat mat_product(int lo, int hi) {
  Mat p{{1, 0, 0, 1}};
  for (int r = lo; r <= hi; ++r) p = mat_mul(p, mat_of_rank(r));
  return p;
}

bool mat_eq(const Mat &x, const Mat &y) { return std::memcmp(x.a, y.a, sizeof x.a) == 0; }

// Non-commutative user op: inout = in * inout (in comes from lower ranks).
void mat_mul_op(void *in, void *inout, int *len, MPI_Datatype *) {
  const Mat *a = static_cast<const Mat *>(in);
  Mat *b = static_cast<Mat *>(inout);
  for (int i = 0; i < *len; ++i) b[i] = mat_mul(a[i], b[i]);
}

// Commutative user op on ints: addition modulo 7.
void add_mod7_op(void *in, void *inout, int *len, MPI_Datatype *) {
  const int *a = static_cast<const int *>(in);
  int *b = static_cast<int *>(inout);
  for (int i = 0; i < *len; ++i) b[i] = (a[i] + b[i]) % 7;
}

void check_ints(const int *got, const int *want, int n, const char *what) {
  for (int i = 0; i < n; ++i)
    CHECK(got[i] == want[i], "%s: element %d is %d, expected %d", what, i, got[i], want[i]);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("collectives");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int sum_ranks = n * (n - 1) / 2;

  // --- MPI_Barrier -----------------------------------------------------------
  MPI_Barrier(comm);

  // --- MPI_Bcast from the last rank -----------------------------------------
  {
    int buf[5];
    int want[5];
    for (int i = 0; i < 5; ++i) {
      want[i] = 100 + i * i;
      buf[i] = rank == n - 1 ? want[i] : -1;
    }
    MPI_Bcast(buf, 5, MPI_INT, n - 1, comm);
    check_ints(buf, want, 5, "Bcast");
    double d = rank == 0 ? 2.5 : 0.0;
    MPI_Bcast(&d, 1, MPI_DOUBLE, 0, comm);
    CHECK(d == 2.5, "Bcast of a double gave %g", d);
  }

  // --- MPI_Gather to rank 0 --------------------------------------------------
  {
    int mine[2] = {rank * 10, rank * 10 + 1};
    std::vector<int> all(2 * n, -1);
    MPI_Gather(mine, 2, MPI_INT, rank == 0 ? all.data() : nullptr, 2, MPI_INT, 0, comm);
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        CHECK(all[2 * r] == r * 10 && all[2 * r + 1] == r * 10 + 1, "Gather: block %d is %d,%d",
              r, all[2 * r], all[2 * r + 1]);
  }

  // --- MPI_Gatherv to rank 1 % n, variable counts, gaps between blocks ------
  {
    const int root = 1 % n;
    std::vector<int> mine(rank + 1);
    for (int i = 0; i <= rank; ++i) mine[i] = 100 * rank + i;
    std::vector<int> counts(n), displs(n);
    int total = 0;
    for (int r = 0; r < n; ++r) {
      counts[r] = r + 1;
      displs[r] = total + 1;  // one untouched slot before every block
      total += r + 2;
    }
    std::vector<int> all(total, -1);
    MPI_Gatherv(mine.data(), rank + 1, MPI_INT, all.data(), counts.data(), displs.data(), MPI_INT,
                root, comm);
    if (rank == root) {
      for (int r = 0; r < n; ++r) {
        CHECK(all[displs[r] - 1] == -1, "Gatherv wrote into the gap before block %d", r);
        for (int i = 0; i <= r; ++i)
          CHECK(all[displs[r] + i] == 100 * r + i, "Gatherv: block %d element %d is %d", r, i,
                all[displs[r] + i]);
      }
    }
  }

  // --- MPI_Scatter from rank 0 -----------------------------------------------
  {
    std::vector<int> all;
    if (rank == 0) {
      all.resize(3 * n);
      for (int j = 0; j < 3 * n; ++j) all[j] = 1000 + j;
    }
    int mine[3] = {-1, -1, -1};
    MPI_Scatter(all.data(), 3, MPI_INT, mine, 3, MPI_INT, 0, comm);
    for (int i = 0; i < 3; ++i)
      CHECK(mine[i] == 1000 + 3 * rank + i, "Scatter: element %d is %d", i, mine[i]);
  }

  // --- MPI_Scatterv from the last rank, blocks stored in reverse order -------
  {
    const int root = n - 1;
    std::vector<int> counts(n), displs(n), all;
    int off = 0;
    for (int r = n - 1; r >= 0; --r) {
      counts[r] = r + 1;
      displs[r] = off;
      off += r + 1;
    }
    if (rank == root) {
      all.assign(off, -1);
      for (int r = 0; r < n; ++r)
        for (int i = 0; i <= r; ++i) all[displs[r] + i] = 5000 + 10 * r + i;
    }
    std::vector<int> mine(rank + 1, -1);
    MPI_Scatterv(all.data(), counts.data(), displs.data(), MPI_INT, mine.data(), rank + 1,
                 MPI_INT, root, comm);
    for (int i = 0; i <= rank; ++i)
      CHECK(mine[i] == 5000 + 10 * rank + i, "Scatterv: element %d is %d", i, mine[i]);
  }

  // --- MPI_Allgather with MPI_IN_PLACE --------------------------------------
  {
    std::vector<int> all(2 * n, -1);
    all[2 * rank] = 7 * rank;
    all[2 * rank + 1] = 7 * rank + 1;
    MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), 2, MPI_INT, comm);
    for (int r = 0; r < n; ++r)
      CHECK(all[2 * r] == 7 * r && all[2 * r + 1] == 7 * r + 1, "Allgather(IN_PLACE): block %d",
            r);
  }

  // --- MPI_Allgatherv, blocks in reverse order --------------------------------
  {
    std::vector<int> counts(n), displs(n);
    int off = 0;
    for (int r = n - 1; r >= 0; --r) {
      counts[r] = n - r;
      displs[r] = off;
      off += n - r;
    }
    std::vector<double> mine(n - rank), all(off, -1.0);
    for (int i = 0; i < n - rank; ++i) mine[i] = rank + 0.5 * i;
    MPI_Allgatherv(mine.data(), n - rank, MPI_DOUBLE, all.data(), counts.data(), displs.data(),
                   MPI_DOUBLE, comm);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < n - r; ++i)
        CHECK(all[displs[r] + i] == r + 0.5 * i, "Allgatherv: block %d element %d is %g", r, i,
              all[displs[r] + i]);
  }

  // --- MPI_Alltoall ------------------------------------------------------------
  {
    std::vector<int> out(2 * n), in(2 * n, -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i) out[2 * j + i] = rank * 100 + j * 10 + i;
    MPI_Alltoall(out.data(), 2, MPI_INT, in.data(), 2, MPI_INT, comm);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i)
        CHECK(in[2 * j + i] == j * 100 + rank * 10 + i, "Alltoall: from %d element %d is %d", j,
              i, in[2 * j + i]);
  }

  // --- MPI_Alltoallv: rank r sends j+1 elements to rank j -------------------
  {
    std::vector<int> scounts(n), sdispls(n), rcounts(n), rdispls(n);
    int soff = 0, roff = 0;
    for (int j = 0; j < n; ++j) {
      scounts[j] = j + 1;
      sdispls[j] = soff;
      soff += j + 1;
      rcounts[j] = rank + 1;
      rdispls[j] = roff + 1;  // leave a gap slot
      roff += rank + 2;
    }
    std::vector<int> out(soff), in(roff, -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) out[sdispls[j] + i] = rank * 100 + j * 10 + i;
    MPI_Alltoallv(out.data(), scounts.data(), sdispls.data(), MPI_INT, in.data(), rcounts.data(),
                  rdispls.data(), MPI_INT, comm);
    for (int j = 0; j < n; ++j) {
      CHECK(in[rdispls[j] - 1] == -1, "Alltoallv wrote into a gap");
      for (int i = 0; i <= rank; ++i)
        CHECK(in[rdispls[j] + i] == j * 100 + rank * 10 + i, "Alltoallv: from %d element %d is %d",
              j, i, in[rdispls[j] + i]);
    }
  }

  // --- MPI_Alltoallw: ints to even ranks, doubles to odd ranks ---------------
  {
    // Every peer gets a 16-byte slot holding two ints or two doubles.
    std::vector<double> out(2 * n), in(2 * n, -1.0);
    std::vector<int> scounts(n, 2), rcounts(n, 2), sdispls(n), rdispls(n);
    std::vector<MPI_Datatype> stypes(n), rtypes(n);
    for (int j = 0; j < n; ++j) {
      sdispls[j] = rdispls[j] = 16 * j;
      stypes[j] = j % 2 ? MPI_DOUBLE : MPI_INT;
      rtypes[j] = rank % 2 ? MPI_DOUBLE : MPI_INT;
      for (int i = 0; i < 2; ++i) {
        const int v = rank * 100 + j * 10 + i;
        if (j % 2) {
          out[2 * j + i] = v + 0.5;
        } else {
          std::memcpy(reinterpret_cast<char *>(out.data()) + 16 * j + 4 * i, &v, sizeof v);
        }
      }
    }
    MPI_Alltoallw(out.data(), scounts.data(), sdispls.data(), stypes.data(), in.data(),
                  rcounts.data(), rdispls.data(), rtypes.data(), comm);
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int v = j * 100 + rank * 10 + i;
        if (rank % 2) {
          CHECK(in[2 * j + i] == v + 0.5, "Alltoallw: double %d from %d is %g", i, j,
                in[2 * j + i]);
        } else {
          int got = 0;
          std::memcpy(&got, reinterpret_cast<const char *>(in.data()) + 16 * j + 4 * i,
                      sizeof got);
          CHECK(got == v, "Alltoallw: int %d from %d is %d, expected %d", i, j, got, v);
        }
      }
    }
  }

  // --- MPI_Reduce ------------------------------------------------------------
  {
    long long mine[3] = {rank, 1LL * rank * rank, 1};
    long long res[3] = {-1, -1, -1};
    MPI_Reduce(mine, res, 3, MPI_LONG_LONG, MPI_SUM, 0, comm);
    if (rank == 0) {
      long long sq = 0;
      for (int r = 0; r < n; ++r) sq += 1LL * r * r;
      CHECK(res[0] == sum_ranks && res[1] == sq && res[2] == n, "Reduce(SUM) gave %lld %lld %lld",
            res[0], res[1], res[2]);
    }
    // MPI_IN_PLACE at the root (the last rank).
    int val[2] = {(rank * 5) % 7, -rank};
    if (rank == n - 1) {
      MPI_Reduce(MPI_IN_PLACE, val, 2, MPI_INT, MPI_MAX, n - 1, comm);
      int want0 = 0;
      for (int r = 0; r < n; ++r) want0 = std::max(want0, (r * 5) % 7);
      CHECK(val[0] == want0 && val[1] == 0, "Reduce(MAX, IN_PLACE) gave %d %d", val[0], val[1]);
    } else {
      MPI_Reduce(val, nullptr, 2, MPI_INT, MPI_MAX, n - 1, comm);
    }
  }

  // --- MPI_Allreduce -----------------------------------------------------------
  {
    double d[2] = {1.0 + rank, 2.0 - rank};
    double dmin[2];
    MPI_Allreduce(d, dmin, 2, MPI_DOUBLE, MPI_MIN, comm);
    CHECK(dmin[0] == 1.0 && dmin[1] == 2.0 - (n - 1), "Allreduce(MIN) gave %g %g", dmin[0],
          dmin[1]);
    double prod = 0.0;
    MPI_Allreduce(&d[0], &prod, 1, MPI_DOUBLE, MPI_PROD, comm);
    double want_prod = 1.0;
    for (int r = 0; r < n; ++r) want_prod *= 1.0 + r;
    CHECK(prod == want_prod, "Allreduce(PROD) gave %g, expected %g", prod, want_prod);

    struct {
      double value;
      int index;
    } loc_in{double((rank * 3) % n), rank}, loc_out{-1.0, -1};
    MPI_Allreduce(&loc_in, &loc_out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
    int want_idx = 0;
    for (int r = 0; r < n; ++r)
      if ((r * 3) % n > (want_idx * 3) % n) want_idx = r;
    CHECK(loc_out.value == double((want_idx * 3) % n) && loc_out.index == want_idx,
          "Allreduce(MAXLOC) gave %g@%d", loc_out.value, loc_out.index);

    int bits[3] = {1 << rank, 1 << rank, rank % 2};
    MPI_Allreduce(MPI_IN_PLACE, &bits[0], 1, MPI_INT, MPI_BOR, comm);
    MPI_Allreduce(MPI_IN_PLACE, &bits[1], 1, MPI_INT, MPI_BAND, comm);
    MPI_Allreduce(MPI_IN_PLACE, &bits[2], 1, MPI_INT, MPI_LXOR, comm);
    CHECK(bits[0] == (1 << n) - 1, "Allreduce(BOR, IN_PLACE) gave %d", bits[0]);
    CHECK(bits[1] == (n == 1 ? 1 : 0), "Allreduce(BAND, IN_PLACE) gave %d", bits[1]);
    CHECK(bits[2] == (n / 2) % 2, "Allreduce(LXOR, IN_PLACE) gave %d", bits[2]);
  }

  // --- MPI_Reduce_scatter: rank i gets i+1 summed elements --------------------
  {
    std::vector<int> counts(n);
    int total = 0;
    for (int r = 0; r < n; ++r) total += (counts[r] = r + 1);
    std::vector<int> out(total), in(rank + 1, -1);
    for (int e = 0; e < total; ++e) out[e] = rank + e;
    MPI_Reduce_scatter(out.data(), in.data(), counts.data(), MPI_INT, MPI_SUM, comm);
    const int first = rank * (rank + 1) / 2;
    for (int i = 0; i <= rank; ++i)
      CHECK(in[i] == sum_ranks + n * (first + i), "Reduce_scatter: element %d is %d", i, in[i]);
  }

  // --- MPI_Reduce_scatter_block: two elements per rank ----------------------
  {
    std::vector<int> out(2 * n);
    for (int e = 0; e < 2 * n; ++e) out[e] = rank * e + 1;
    int in[2] = {-1, -1};
    MPI_Reduce_scatter_block(out.data(), in, 2, MPI_INT, MPI_SUM, comm);
    for (int i = 0; i < 2; ++i) {
      const int e = 2 * rank + i;
      CHECK(in[i] == sum_ranks * e + n, "Reduce_scatter_block: element %d is %d", i, in[i]);
    }
  }

  // --- MPI_Scan / MPI_Exscan ---------------------------------------------------
  {
    int mine = rank + 1, incl = -1, excl = -1;
    MPI_Scan(&mine, &incl, 1, MPI_INT, MPI_SUM, comm);
    CHECK(incl == (rank + 1) * (rank + 2) / 2, "Scan gave %d", incl);
    MPI_Exscan(&mine, &excl, 1, MPI_INT, MPI_SUM, comm);
    if (rank > 0) CHECK(excl == rank * (rank + 1) / 2, "Exscan gave %d", excl);
    // MPI_IN_PLACE variant of MPI_Scan.
    int prod = rank + 1;
    MPI_Scan(MPI_IN_PLACE, &prod, 1, MPI_INT, MPI_PROD, comm);
    int want = 1;
    for (int r = 0; r <= rank; ++r) want *= r + 1;
    CHECK(prod == want, "Scan(PROD, IN_PLACE) gave %d, expected %d", prod, want);
  }

  // --- MPI_Reduce_local --------------------------------------------------------
  {
    int in[3] = {1, 2, 3}, inout[3] = {10, 20, 30};
    MPI_Reduce_local(in, inout, 3, MPI_INT, MPI_SUM);
    const int want[3] = {11, 22, 33};
    check_ints(inout, want, 3, "Reduce_local(SUM)");
  }

  // --- User-defined operations -------------------------------------------------
  {
    MPI_Op add7 = MPI_OP_NULL, matmul = MPI_OP_NULL;
    MPI_Op_create(add_mod7_op, 1, &add7);
    MPI_Op_create(mat_mul_op, 0, &matmul);
    int commute = -1;
    MPI_Op_commutative(add7, &commute);
    CHECK(commute == 1, "Op_commutative(add7) gave %d", commute);
    MPI_Op_commutative(matmul, &commute);
    CHECK(commute == 0, "Op_commutative(matmul) gave %d", commute);

    int a[2] = {rank + 3, 2 * rank}, s[2] = {-1, -1};
    MPI_Allreduce(a, s, 2, MPI_INT, add7, comm);
    int want0 = 0, want1 = 0;
    for (int r = 0; r < n; ++r) {
      want0 = (want0 + r + 3) % 7;
      want1 = (want1 + 2 * r) % 7;
    }
    // The op only reduces modulo 7 when combining, so compare modulo 7.
    CHECK(s[0] % 7 == want0 && s[1] % 7 == want1, "Allreduce(user add7) gave %d %d", s[0], s[1]);

    int lin[2] = {5, 6}, linout[2] = {4, 4};
    MPI_Reduce_local(lin, linout, 2, MPI_INT, add7);
    CHECK(linout[0] == 2 && linout[1] == 3, "Reduce_local(user add7) gave %d %d", linout[0],
          linout[1]);

    MPI_Datatype mat_type;
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_type);
    MPI_Type_commit(&mat_type);
    const Mat mine = mat_of_rank(rank);
    const Mat all = mat_product(0, n - 1);
    Mat got{{-1, -1, -1, -1}};
    MPI_Allreduce(&mine, &got, 1, mat_type, matmul, comm);
    CHECK(mat_eq(got, all), "Allreduce(user matmul) gave [%lld %lld; %lld %lld]", got.a[0],
          got.a[1], got.a[2], got.a[3]);
    got = Mat{{-1, -1, -1, -1}};
    MPI_Reduce(&mine, &got, 1, mat_type, matmul, n - 1, comm);
    if (rank == n - 1)
      CHECK(mat_eq(got, all), "Reduce(user matmul) gave [%lld %lld; %lld %lld]", got.a[0],
            got.a[1], got.a[2], got.a[3]);
    got = Mat{{-1, -1, -1, -1}};
    MPI_Scan(&mine, &got, 1, mat_type, matmul, comm);
    const Mat prefix = mat_product(0, rank);
    CHECK(mat_eq(got, prefix), "Scan(user matmul) gave [%lld %lld; %lld %lld]", got.a[0],
          got.a[1], got.a[2], got.a[3]);
    got = Mat{{-1, -1, -1, -1}};
    MPI_Exscan(&mine, &got, 1, mat_type, matmul, comm);
    if (rank > 0) {
      const Mat eprefix = mat_product(0, rank - 1);
      CHECK(mat_eq(got, eprefix), "Exscan(user matmul) gave [%lld %lld; %lld %lld]", got.a[0],
            got.a[1], got.a[2], got.a[3]);
    }
    MPI_Type_free(&mat_type);

    MPI_Op_free(&add7);
    MPI_Op_free(&matmul);
    CHECK(add7 == MPI_OP_NULL && matmul == MPI_OP_NULL, "Op_free did not reset the handles");
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
