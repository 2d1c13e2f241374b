// regions: a traced region between MPI_Pcontrol(0) and MPI_Pcontrol(1), with
// phases (pilgrim/annotate.h), handles made while tracing is off and used
// while on, and requests that straddle both switches (README "Regions and
// phases").
//
//   MPI_Pcontrol(0)                          (unless --no-initial-off)
//   N iterations of traffic                  off: not recorded
//   MPI_Comm_split, MPI_Comm_set_name,       off: recorded (handles)
//   MPI_Type_contiguous/commit
//   "early" ring Irecv/Isend                 off: never recorded
//   MPI_Pcontrol(1), phase "exchange"
//   Sendrecv of the pair type in the half communicator
//   ring Irecv/Isend, Waitall of early + these   recorded, early as null
//   phase "reduce": Allreduce in the half; "late" ring Irecv/Isend
//   MPI_Pcontrol(0)
//   Waitall of late                          off: recorded (on requests)
//   N iterations of traffic; Comm_free, Type_free (recorded)
//
// With --skew, rank 0 turns tracing on after the exchange's Sendrecv, the
// others before it: ranks that switch at different points (the trace then
// holds a Sendrecv on every rank but rank 0).
//
// Usage: regions [-n N] [--no-initial-off] [--skew]   (default N = 10)
// Any number of ranks >= 1.
#include "mpi_test_util.h"

#include <pilgrim/annotate.h>

#include <string>

namespace {

enum { TAG_TRAFFIC = 1, TAG_EARLY = 2, TAG_ON = 3, TAG_LATE = 4 };

// Ring traffic and a reduction, `n` times: what a region leaves out.
void traffic(int n, int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  for (int i = 0; i < n; ++i) {
    int out = rank * 1000 + i, in = -1;
    MPI_Request r[2];
    MPI_Irecv(&in, 1, MPI_INT, left, TAG_TRAFFIC, MPI_COMM_WORLD, &r[0]);
    MPI_Isend(&out, 1, MPI_INT, right, TAG_TRAFFIC, MPI_COMM_WORLD, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    if (in != left * 1000 + i)
      mpitest::fail("traffic %d: got %d from %d", i, in, left);
    int sum = 0;
    MPI_Allreduce(&i, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (sum != i * size)
      mpitest::fail("traffic %d: sum %d", i, sum);
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("regions");
  int n = 10;
  bool initial_off = true, skew = false;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      n = mpitest::parse_count(argv[++a], "-n", 0);
    else if (arg == "--no-initial-off")
      initial_off = false;
    else if (arg == "--skew")
      skew = true;
    else
      mpitest::fail("unknown argument '%s' (usage: regions [-n N] [--no-initial-off] [--skew])",
                    arg.c_str());
  }
  if (initial_off)
    MPI_Pcontrol(0);
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD), size = mpitest::comm_size(MPI_COMM_WORLD);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  traffic(n, rank, size);

  // Handles made while tracing is off, used while on.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_set_name(half, "half"); // a change of a handle: recorded
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  const int hrank = mpitest::comm_rank(half), hsize = mpitest::comm_size(half);

  // Started while off, completed while on: never recorded.
  int early_out = rank, early_in = -1;
  MPI_Request all[4];
  MPI_Irecv(&early_in, 1, MPI_INT, left, TAG_EARLY, MPI_COMM_WORLD, &all[0]);
  MPI_Isend(&early_out, 1, MPI_INT, right, TAG_EARLY, MPI_COMM_WORLD, &all[1]);

  const bool late_switch = skew && rank == 0;
  if (!late_switch)
    MPI_Pcontrol(1);
  PILGRIM_PHASE("exchange");
  int pair_out[2] = {hrank, -hrank}, pair_in[2] = {0, 0};
  const int hright = (hrank + 1) % hsize, hleft = (hrank + hsize - 1) % hsize;
  MPI_Sendrecv(pair_out, 1, pair, hright, TAG_ON, pair_in, 1, pair, hleft, TAG_ON, half,
               MPI_STATUS_IGNORE);
  if (pair_in[0] != hleft || pair_in[1] != -hleft)
    mpitest::fail("pair from %d: %d %d", hleft, pair_in[0], pair_in[1]);
  if (late_switch)
    MPI_Pcontrol(1);
  // Started while on: recorded, in one Waitall with the early ones.
  int on_out = rank + 100, on_in = -1;
  MPI_Irecv(&on_in, 1, MPI_INT, right, TAG_ON, MPI_COMM_WORLD, &all[2]);
  MPI_Isend(&on_out, 1, MPI_INT, left, TAG_ON, MPI_COMM_WORLD, &all[3]);
  MPI_Status st[4];
  MPI_Waitall(4, all, st);
  if (early_in != left || on_in != right + 100)
    mpitest::fail("early %d from %d, on %d from %d", early_in, left, on_in, right);
  if (st[2].MPI_SOURCE != right || st[2].MPI_TAG != TAG_ON)
    mpitest::fail("status of the on receive: source %d tag %d", st[2].MPI_SOURCE, st[2].MPI_TAG);

  PILGRIM_PHASE("reduce");
  int hsum = 0;
  MPI_Allreduce(&hrank, &hsum, 1, MPI_INT, MPI_SUM, half);
  if (hsum != hsize * (hsize - 1) / 2)
    mpitest::fail("half sum %d", hsum);
  // Started while on, completed while off: recorded.
  int late_out = rank + 200, late_in = -1;
  MPI_Request late[2];
  MPI_Irecv(&late_in, 1, MPI_INT, left, TAG_LATE, MPI_COMM_WORLD, &late[0]);
  MPI_Isend(&late_out, 1, MPI_INT, right, TAG_LATE, MPI_COMM_WORLD, &late[1]);
  MPI_Pcontrol(0);
  MPI_Waitall(2, late, MPI_STATUSES_IGNORE);
  if (late_in != left + 200)
    mpitest::fail("late %d from %d", late_in, left);

  traffic(n, rank, size);
  MPI_Comm_free(&half);
  MPI_Type_free(&pair);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
