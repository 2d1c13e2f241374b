// idup_overlap: MPI_Comm_idup kept outstanding while the application runs
// its own nonblocking collectives, on the parent or on another communicator,
// in a different order on different ranks (which MPI allows across
// communicators). The tracer's id agreement must never meet these operations
// nor the MPI library's own in-flight idup rounds (test/runtime/idup_overlap.test).
//
//   idup_overlap CASE      CASE is one of
//     several   four idups of MPI_COMM_WORLD outstanding at once, each followed
//               by an MPI_Iallreduce on MPI_COMM_WORLD, completed by one Waitall
//     polled    the same, completed by an MPI_Testall loop (polling progresses
//               the idups' rounds at different times on different ranks)
//     dup       the idup of a duplicate of MPI_COMM_WORLD, while rank 0 starts
//               its Iallreduce on MPI_COMM_WORLD before the idup and the
//               others after it
//     split     the same with the halves of a split as the parent
//     inter     the idup of an intercommunicator between the halves, with an
//               Iallreduce on MPI_COMM_WORLD started before it on even ranks
//               and after it on odd ones
//     chain     the idup of a communicator that was itself just idup'ed, with
//               an Iallreduce on that communicator started right after
// Every new communicator is then used (point-to-point and a collective) and
// checked. Runs with 4 or more ranks.
#include "mpi_test_util.h"

#include <cstring>
#include <vector>

namespace {

using mpitest::comm_rank;
using mpitest::comm_size;

int world_rank() { return comm_rank(MPI_COMM_WORLD); }

// The new intracommunicator `c` is a copy of `like`: same size and rank, the
// same members (the sum of their world ranks), and a ring exchange works.
void check_intra_copy(MPI_Comm c, MPI_Comm like, const char *what) {
  CHECK(comm_size(c) == comm_size(like) && comm_rank(c) == comm_rank(like), "%s: size %d rank %d",
        what, comm_size(c), comm_rank(c));
  int mine = world_rank(), sum = -1, want = -1;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
  MPI_Allreduce(&mine, &want, 1, MPI_INT, MPI_SUM, like);
  CHECK(sum == want, "%s: members sum to %d, expected %d", what, sum, want);
  const int n = comm_size(c), r = comm_rank(c);
  int out = 1000 + r, in = -1;
  MPI_Sendrecv(&out, 1, MPI_INT, (r + 1) % n, 5, &in, 1, MPI_INT, (r + n - 1) % n, 5, c,
               MPI_STATUS_IGNORE);
  CHECK(in == 1000 + (r + n - 1) % n, "%s: ring got %d", what, in);
}

// The application's own nonblocking collective and what it must give.
struct Sum {
  int in = 0, out = -1, want = 0;
  MPI_Request req = MPI_REQUEST_NULL;
  void start(MPI_Comm c, int value) {
    in = value;
    MPI_Iallreduce(&in, &out, 1, MPI_INT, MPI_SUM, c, &req);
  }
};

int world_sum_of_ranks() {
  const int n = comm_size(MPI_COMM_WORLD);
  return n * (n - 1) / 2;
}

void several(bool polled) {
  constexpr int k = 4;
  MPI_Comm dups[k];
  Sum sums[k];
  std::vector<MPI_Request> reqs;
  for (int i = 0; i < k; ++i) {
    MPI_Request r;
    MPI_Comm_idup(MPI_COMM_WORLD, &dups[i], &r);
    reqs.push_back(r);
    sums[i].start(MPI_COMM_WORLD, world_rank() + i);
    reqs.push_back(sums[i].req);
  }
  if (polled) {
    int done = 0;
    while (!done)
      MPI_Testall(static_cast<int>(reqs.size()), reqs.data(), &done, MPI_STATUSES_IGNORE);
  } else {
    MPI_Waitall(static_cast<int>(reqs.size()), reqs.data(), MPI_STATUSES_IGNORE);
  }
  for (int i = 0; i < k; ++i) {
    const int want = world_sum_of_ranks() + i * comm_size(MPI_COMM_WORLD);
    CHECK(sums[i].out == want, "Iallreduce %d gave %d, expected %d", i, sums[i].out, want);
    check_intra_copy(dups[i], MPI_COMM_WORLD, "idup of MPI_COMM_WORLD");
  }
  for (MPI_Comm &c : dups)
    MPI_Comm_free(&c);
}

// idup of `parent` and an Iallreduce on MPI_COMM_WORLD, the Iallreduce first
// where `sum_first`.
void idup_beside_world(MPI_Comm parent, bool sum_first, const char *what) {
  MPI_Comm copy;
  Sum sum;
  MPI_Request reqs[2];
  if (sum_first)
    sum.start(MPI_COMM_WORLD, world_rank());
  MPI_Comm_idup(parent, &copy, &reqs[0]);
  if (!sum_first)
    sum.start(MPI_COMM_WORLD, world_rank());
  reqs[1] = sum.req;
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  CHECK(sum.out == world_sum_of_ranks(), "%s: Iallreduce gave %d", what, sum.out);
  check_intra_copy(copy, parent, what);
  MPI_Comm_free(&copy);
}

void dup_case() {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  idup_beside_world(dup, world_rank() == 0, "idup of a dup");
  MPI_Comm_free(&dup);
}

void split_case() {
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half);
  idup_beside_world(half, comm_rank(half) == 0, "idup of a split");
  MPI_Comm_free(&half);
}

void inter_case() {
  const int me = world_rank();
  const bool even = me % 2 == 0;
  MPI_Comm half, inter, copy;
  MPI_Comm_split(MPI_COMM_WORLD, me % 2, me, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, even ? 1 : 0, 21, &inter);
  Sum sum;
  MPI_Request reqs[2];
  if (even)
    sum.start(MPI_COMM_WORLD, me);
  MPI_Comm_idup(inter, &copy, &reqs[0]);
  if (!even)
    sum.start(MPI_COMM_WORLD, me);
  reqs[1] = sum.req;
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  CHECK(sum.out == world_sum_of_ranks(), "inter: Iallreduce gave %d", sum.out);
  int is_inter = 0, remote = -1, want_remote = -1;
  MPI_Comm_test_inter(copy, &is_inter);
  MPI_Comm_remote_size(copy, &remote);
  MPI_Comm_remote_size(inter, &want_remote);
  CHECK(is_inter && remote == want_remote && comm_rank(copy) == comm_rank(inter),
        "inter: copy is inter %d, remote size %d", is_inter, remote);
  // An allreduce over an intercommunicator gives each group the other's sum.
  int mine = me, other = -1, want = 0;
  MPI_Allreduce(&mine, &other, 1, MPI_INT, MPI_SUM, copy);
  for (int r = 0; r < comm_size(MPI_COMM_WORLD); ++r)
    if (r % 2 != me % 2)
      want += r;
  CHECK(other == want, "inter: remote group sums to %d, expected %d", other, want);
  // Point-to-point across the copy: local rank i talks to remote rank i.
  int out = me, in = -1;
  const int peer = comm_rank(copy);
  if (peer < remote) {
    MPI_Sendrecv(&out, 1, MPI_INT, peer, 6, &in, 1, MPI_INT, peer, 6, copy, MPI_STATUS_IGNORE);
    CHECK(in == (even ? me + 1 : me - 1), "inter: got %d from the other side", in);
  }
  MPI_Comm_free(&copy);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

void chain_case() {
  MPI_Comm first, second;
  MPI_Request r;
  MPI_Comm_idup(MPI_COMM_WORLD, &first, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  Sum sum;
  MPI_Request reqs[2];
  MPI_Comm_idup(first, &second, &reqs[0]);
  sum.start(first, world_rank());
  reqs[1] = sum.req;
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  CHECK(sum.out == world_sum_of_ranks(), "chain: Iallreduce gave %d", sum.out);
  check_intra_copy(first, MPI_COMM_WORLD, "chain: first idup");
  check_intra_copy(second, first, "chain: second idup");
  MPI_Comm_free(&second);
  MPI_Comm_free(&first);
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("idup_overlap");
  CHECK(comm_size(MPI_COMM_WORLD) >= 4 && comm_size(MPI_COMM_WORLD) % 2 == 0,
        "needs an even number of ranks, 4 or more");
  const char *what = argc > 1 ? argv[1] : "";
  if (!std::strcmp(what, "several"))
    several(false);
  else if (!std::strcmp(what, "polled"))
    several(true);
  else if (!std::strcmp(what, "dup"))
    dup_case();
  else if (!std::strcmp(what, "split"))
    split_case();
  else if (!std::strcmp(what, "inter"))
    inter_case();
  else if (!std::strcmp(what, "chain"))
    chain_case();
  else
    mpitest::fail("unknown case '%s' (several, polled, dup, split, inter, chain)", what);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
