// collectives_nonblocking: every nonblocking collective on MPI_COMM_WORLD.
//
// MPI_Ibarrier, MPI_Ibcast, MPI_Igather, MPI_Igatherv, MPI_Iscatter,
// MPI_Iscatterv, MPI_Iallgather (MPI_IN_PLACE), MPI_Iallgatherv,
// MPI_Ialltoall, MPI_Ialltoallv, MPI_Ialltoallw, MPI_Ireduce (also
// MPI_IN_PLACE at the root), MPI_Iallreduce (predefined and user ops),
// MPI_Ireduce_scatter, MPI_Ireduce_scatter_block, MPI_Iscan, MPI_Iexscan.
// Several operations are kept in flight at once and completed with
// MPI_Waitall; others are completed with MPI_Wait, MPI_Test or MPI_Testall
// polling loops.  Runs with 1 or more ranks (the brief uses 2-4).
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

void test_until_done(MPI_Request *req) {
  int flag = 0;
  while (!flag) MPI_Test(req, &flag, MPI_STATUS_IGNORE);
  CHECK(*req == MPI_REQUEST_NULL, "Test did not free a completed collective request");
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("collectives_nonblocking");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  const MPI_Comm comm = MPI_COMM_WORLD;
  const int sum_ranks = n * (n - 1) / 2;

  // === Batch 1: rooted data movement, all in flight, MPI_Waitall ==========
  {
    MPI_Request reqs[6];
    // Ibarrier
    MPI_Ibarrier(comm, &reqs[0]);
    // Ibcast from the last rank
    int bc[5];
    for (int i = 0; i < 5; ++i) bc[i] = rank == n - 1 ? 100 + i * i : -1;
    MPI_Ibcast(bc, 5, MPI_INT, n - 1, comm, &reqs[1]);
    // Igather to rank 0
    int g_mine[2] = {rank * 10, rank * 10 + 1};
    std::vector<int> g_all(2 * n, -1);
    MPI_Igather(g_mine, 2, MPI_INT, g_all.data(), 2, MPI_INT, 0, comm, &reqs[2]);
    // Igatherv to rank 1 % n with a gap slot before every block
    const int gv_root = 1 % n;
    std::vector<int> gv_mine(rank + 1), gv_counts(n), gv_displs(n);
    for (int i = 0; i <= rank; ++i) gv_mine[i] = 100 * rank + i;
    int gv_total = 0;
    for (int r = 0; r < n; ++r) {
      gv_counts[r] = r + 1;
      gv_displs[r] = gv_total + 1;
      gv_total += r + 2;
    }
    std::vector<int> gv_all(gv_total, -1);
    MPI_Igatherv(gv_mine.data(), rank + 1, MPI_INT, gv_all.data(), gv_counts.data(),
                 gv_displs.data(), MPI_INT, gv_root, comm, &reqs[3]);
    // Iscatter from rank 0
    std::vector<int> s_all(3 * n);
    for (int j = 0; j < 3 * n; ++j) s_all[j] = 1000 + j;
    int s_mine[3] = {-1, -1, -1};
    MPI_Iscatter(s_all.data(), 3, MPI_INT, s_mine, 3, MPI_INT, 0, comm, &reqs[4]);
    // Iscatterv from the last rank, blocks in reverse order
    std::vector<int> sv_counts(n), sv_displs(n);
    int sv_off = 0;
    for (int r = n - 1; r >= 0; --r) {
      sv_counts[r] = r + 1;
      sv_displs[r] = sv_off;
      sv_off += r + 1;
    }
    std::vector<int> sv_all(sv_off, -1), sv_mine(rank + 1, -1);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i <= r; ++i) sv_all[sv_displs[r] + i] = 5000 + 10 * r + i;
    MPI_Iscatterv(sv_all.data(), sv_counts.data(), sv_displs.data(), MPI_INT, sv_mine.data(),
                  rank + 1, MPI_INT, n - 1, comm, &reqs[5]);

    MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE);
    for (int k = 0; k < 6; ++k)
      CHECK(reqs[k] == MPI_REQUEST_NULL, "Waitall left collective request %d active", k);

    for (int i = 0; i < 5; ++i) CHECK(bc[i] == 100 + i * i, "Ibcast: element %d is %d", i, bc[i]);
    if (rank == 0)
      for (int r = 0; r < n; ++r)
        CHECK(g_all[2 * r] == r * 10 && g_all[2 * r + 1] == r * 10 + 1,
              "Igather: block %d is %d,%d", r, g_all[2 * r], g_all[2 * r + 1]);
    if (rank == gv_root) {
      for (int r = 0; r < n; ++r) {
        CHECK(gv_all[gv_displs[r] - 1] == -1, "Igatherv wrote into the gap before block %d", r);
        for (int i = 0; i <= r; ++i)
          CHECK(gv_all[gv_displs[r] + i] == 100 * r + i, "Igatherv: block %d element %d is %d", r,
                i, gv_all[gv_displs[r] + i]);
      }
    }
    for (int i = 0; i < 3; ++i)
      CHECK(s_mine[i] == 1000 + 3 * rank + i, "Iscatter: element %d is %d", i, s_mine[i]);
    for (int i = 0; i <= rank; ++i)
      CHECK(sv_mine[i] == 5000 + 10 * rank + i, "Iscatterv: element %d is %d", i, sv_mine[i]);
  }

  // === Batch 2: all-to-all data movement, MPI_Test loops / MPI_Wait ========
  {
    // Iallgather with MPI_IN_PLACE
    std::vector<int> all(2 * n, -1);
    all[2 * rank] = 7 * rank;
    all[2 * rank + 1] = 7 * rank + 1;
    MPI_Request req;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all.data(), 2, MPI_INT, comm, &req);
    test_until_done(&req);
    for (int r = 0; r < n; ++r)
      CHECK(all[2 * r] == 7 * r && all[2 * r + 1] == 7 * r + 1,
            "Iallgather(IN_PLACE): block %d", r);

    // Iallgatherv, blocks in reverse order
    std::vector<int> counts(n), displs(n);
    int off = 0;
    for (int r = n - 1; r >= 0; --r) {
      counts[r] = n - r;
      displs[r] = off;
      off += n - r;
    }
    std::vector<double> mine(n - rank), gathered(off, -1.0);
    for (int i = 0; i < n - rank; ++i) mine[i] = rank + 0.5 * i;
    MPI_Iallgatherv(mine.data(), n - rank, MPI_DOUBLE, gathered.data(), counts.data(),
                    displs.data(), MPI_DOUBLE, comm, &req);
    test_until_done(&req);
    for (int r = 0; r < n; ++r)
      for (int i = 0; i < n - r; ++i)
        CHECK(gathered[displs[r] + i] == r + 0.5 * i, "Iallgatherv: block %d element %d is %g", r,
              i, gathered[displs[r] + i]);

    // Ialltoall
    std::vector<int> out(2 * n), in(2 * n, -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i) out[2 * j + i] = rank * 100 + j * 10 + i;
    MPI_Ialltoall(out.data(), 2, MPI_INT, in.data(), 2, MPI_INT, comm, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < 2; ++i)
        CHECK(in[2 * j + i] == j * 100 + rank * 10 + i, "Ialltoall: from %d element %d is %d", j,
              i, in[2 * j + i]);
  }

  // === Batch 3: vector all-to-all, both in flight, MPI_Wait each ==========
  {
    // Ialltoallv: rank r sends j+1 elements to rank j
    std::vector<int> scounts(n), sdispls(n), rcounts(n), rdispls(n);
    int soff = 0, roff = 0;
    for (int j = 0; j < n; ++j) {
      scounts[j] = j + 1;
      sdispls[j] = soff;
      soff += j + 1;
      rcounts[j] = rank + 1;
      rdispls[j] = roff + 1;
      roff += rank + 2;
    }
    std::vector<int> vout(soff), vin(roff, -1);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i <= j; ++i) vout[sdispls[j] + i] = rank * 100 + j * 10 + i;
    MPI_Request vreq, wreq;
    MPI_Ialltoallv(vout.data(), scounts.data(), sdispls.data(), MPI_INT, vin.data(),
                   rcounts.data(), rdispls.data(), MPI_INT, comm, &vreq);

    // Ialltoallw: ints to even ranks, doubles to odd ranks, 16-byte slots
    std::vector<double> wout(2 * n), win(2 * n, -1.0);
    std::vector<int> wscounts(n, 2), wrcounts(n, 2), wsdispls(n), wrdispls(n);
    std::vector<MPI_Datatype> wstypes(n), wrtypes(n);
    for (int j = 0; j < n; ++j) {
      wsdispls[j] = wrdispls[j] = 16 * j;
      wstypes[j] = j % 2 ? MPI_DOUBLE : MPI_INT;
      wrtypes[j] = rank % 2 ? MPI_DOUBLE : MPI_INT;
      for (int i = 0; i < 2; ++i) {
        const int v = rank * 100 + j * 10 + i;
        if (j % 2)
          wout[2 * j + i] = v + 0.5;
        else
          std::memcpy(reinterpret_cast<char *>(wout.data()) + 16 * j + 4 * i, &v, sizeof v);
      }
    }
    MPI_Ialltoallw(wout.data(), wscounts.data(), wsdispls.data(), wstypes.data(), win.data(),
                   wrcounts.data(), wrdispls.data(), wrtypes.data(), comm, &wreq);

    MPI_Wait(&wreq, MPI_STATUS_IGNORE);
    MPI_Wait(&vreq, MPI_STATUS_IGNORE);
    for (int j = 0; j < n; ++j) {
      CHECK(vin[rdispls[j] - 1] == -1, "Ialltoallv wrote into a gap");
      for (int i = 0; i <= rank; ++i)
        CHECK(vin[rdispls[j] + i] == j * 100 + rank * 10 + i,
              "Ialltoallv: from %d element %d is %d", j, i, vin[rdispls[j] + i]);
    }
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < 2; ++i) {
        const int v = j * 100 + rank * 10 + i;
        if (rank % 2) {
          CHECK(win[2 * j + i] == v + 0.5, "Ialltoallw: double %d from %d is %g", i, j,
                win[2 * j + i]);
        } else {
          int got = 0;
          std::memcpy(&got, reinterpret_cast<const char *>(win.data()) + 16 * j + 4 * i,
                      sizeof got);
          CHECK(got == v, "Ialltoallw: int %d from %d is %d, expected %d", i, j, got, v);
        }
      }
    }
  }

  // === Batch 4: reductions, all in flight, MPI_Waitall ======================
  {
    MPI_Request reqs[9];
    // Ireduce(SUM) to rank 0
    long long r_mine[3] = {rank, 1LL * rank * rank, 1}, r_res[3] = {-1, -1, -1};
    MPI_Ireduce(r_mine, r_res, 3, MPI_LONG_LONG, MPI_SUM, 0, comm, &reqs[0]);
    // Ireduce(MAX) with MPI_IN_PLACE at the root (the last rank)
    int m_val[2] = {(rank * 5) % 7, -rank};
    if (rank == n - 1)
      MPI_Ireduce(MPI_IN_PLACE, m_val, 2, MPI_INT, MPI_MAX, n - 1, comm, &reqs[1]);
    else
      MPI_Ireduce(m_val, nullptr, 2, MPI_INT, MPI_MAX, n - 1, comm, &reqs[1]);
    // Iallreduce(MIN)
    double d[2] = {1.0 + rank, 2.0 - rank}, dmin[2] = {0, 0};
    MPI_Iallreduce(d, dmin, 2, MPI_DOUBLE, MPI_MIN, comm, &reqs[2]);
    // Iallreduce(MAXLOC)
    struct {
      double value;
      int index;
    } loc_in{double((rank * 3) % n), rank}, loc_out{-1.0, -1};
    MPI_Iallreduce(&loc_in, &loc_out, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm, &reqs[3]);
    // Iallreduce(BOR) in place
    int bits = 1 << rank;
    MPI_Iallreduce(MPI_IN_PLACE, &bits, 1, MPI_INT, MPI_BOR, comm, &reqs[4]);
    // Ireduce_scatter: rank i gets i+1 elements
    std::vector<int> rs_counts(n);
    int rs_total = 0;
    for (int r = 0; r < n; ++r) rs_total += (rs_counts[r] = r + 1);
    std::vector<int> rs_out(rs_total), rs_in(rank + 1, -1);
    for (int e = 0; e < rs_total; ++e) rs_out[e] = rank + e;
    MPI_Ireduce_scatter(rs_out.data(), rs_in.data(), rs_counts.data(), MPI_INT, MPI_SUM, comm,
                        &reqs[5]);
    // Ireduce_scatter_block: two elements per rank
    std::vector<int> rsb_out(2 * n);
    for (int e = 0; e < 2 * n; ++e) rsb_out[e] = rank * e + 1;
    int rsb_in[2] = {-1, -1};
    MPI_Ireduce_scatter_block(rsb_out.data(), rsb_in, 2, MPI_INT, MPI_SUM, comm, &reqs[6]);
    // Iscan / Iexscan
    int mine = rank + 1, incl = -1, excl = -1;
    MPI_Iscan(&mine, &incl, 1, MPI_INT, MPI_SUM, comm, &reqs[7]);
    MPI_Iexscan(&mine, &excl, 1, MPI_INT, MPI_SUM, comm, &reqs[8]);

    MPI_Waitall(9, reqs, MPI_STATUSES_IGNORE);

    if (rank == 0) {
      long long sq = 0;
      for (int r = 0; r < n; ++r) sq += 1LL * r * r;
      CHECK(r_res[0] == sum_ranks && r_res[1] == sq && r_res[2] == n,
            "Ireduce(SUM) gave %lld %lld %lld", r_res[0], r_res[1], r_res[2]);
    }
    if (rank == n - 1) {
      int want0 = 0;
      for (int r = 0; r < n; ++r) want0 = std::max(want0, (r * 5) % 7);
      CHECK(m_val[0] == want0 && m_val[1] == 0, "Ireduce(MAX, IN_PLACE) gave %d %d", m_val[0],
            m_val[1]);
    }
    CHECK(dmin[0] == 1.0 && dmin[1] == 2.0 - (n - 1), "Iallreduce(MIN) gave %g %g", dmin[0],
          dmin[1]);
    int want_idx = 0;
    for (int r = 0; r < n; ++r)
      if ((r * 3) % n > (want_idx * 3) % n) want_idx = r;
    CHECK(loc_out.value == double((want_idx * 3) % n) && loc_out.index == want_idx,
          "Iallreduce(MAXLOC) gave %g@%d", loc_out.value, loc_out.index);
    CHECK(bits == (1 << n) - 1, "Iallreduce(BOR, IN_PLACE) gave %d", bits);
    const int first = rank * (rank + 1) / 2;
    for (int i = 0; i <= rank; ++i)
      CHECK(rs_in[i] == sum_ranks + n * (first + i), "Ireduce_scatter: element %d is %d", i,
            rs_in[i]);
    for (int i = 0; i < 2; ++i)
      CHECK(rsb_in[i] == sum_ranks * (2 * rank + i) + n, "Ireduce_scatter_block: element %d is %d",
            i, rsb_in[i]);
    CHECK(incl == (rank + 1) * (rank + 2) / 2, "Iscan gave %d", incl);
    if (rank > 0) CHECK(excl == rank * (rank + 1) / 2, "Iexscan gave %d", excl);
  }

  // === Batch 5: non-commutative user op, MPI_Testall loop ===================
  {
    MPI_Op matmul = MPI_OP_NULL;
    MPI_Op_create(mat_mul_op, 0, &matmul);
    MPI_Datatype mat_type;
    MPI_Type_contiguous(4, MPI_LONG_LONG, &mat_type);
    MPI_Type_commit(&mat_type);
    const Mat mine = mat_of_rank(rank);
    Mat all{{-1, -1, -1, -1}}, prefix{{-1, -1, -1, -1}}, eprefix{{-1, -1, -1, -1}};
    MPI_Request reqs[3];
    MPI_Iallreduce(&mine, &all, 1, mat_type, matmul, comm, &reqs[0]);
    MPI_Iscan(&mine, &prefix, 1, mat_type, matmul, comm, &reqs[1]);
    MPI_Iexscan(&mine, &eprefix, 1, mat_type, matmul, comm, &reqs[2]);
    int flag = 0;
    while (!flag) MPI_Testall(3, reqs, &flag, MPI_STATUSES_IGNORE);
    CHECK(mat_eq(all, mat_product(0, n - 1)), "Iallreduce(user matmul) gave [%lld %lld; %lld %lld]",
          all.a[0], all.a[1], all.a[2], all.a[3]);
    CHECK(mat_eq(prefix, mat_product(0, rank)), "Iscan(user matmul) gave [%lld %lld; %lld %lld]",
          prefix.a[0], prefix.a[1], prefix.a[2], prefix.a[3]);
    if (rank > 0)
      CHECK(mat_eq(eprefix, mat_product(0, rank - 1)),
            "Iexscan(user matmul) gave [%lld %lld; %lld %lld]", eprefix.a[0], eprefix.a[1],
            eprefix.a[2], eprefix.a[3]);
    MPI_Type_free(&mat_type);
    MPI_Op_free(&matmul);
  }

  // A final nonblocking barrier completed with MPI_Wait.
  MPI_Request req;
  MPI_Ibarrier(comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
