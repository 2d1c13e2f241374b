// comm_spawn: MPI_Comm_spawn of two copies of this program, the merge of the
// intercommunicator, a dup of the merge, collectives on each. Under the
// tracer the children are a separate MPI job that may not be traced at all
// (test/runtime/comm_spawn.test runs them untraced): creating these
// communicators must not wait for them. Runs with 2 ranks; the children get
// the argument "child". The parents check the data; the children only the
// communicators' sizes, since they are also spawned by a proxy of the
// parents (test/proxy/roundtrip_comm_spawn.test), which sends filler data.
#include "mpi_test_util.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm parent = MPI_COMM_NULL;
  MPI_Comm_get_parent(&parent);
  const bool child = parent != MPI_COMM_NULL;
  mpitest::set_name(child ? "comm_spawn child" : "comm_spawn");
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  CHECK(world == 2, "needs 2 ranks (and spawns 2), got %d", world);

  MPI_Comm inter = parent;
  if (!child) {
    char arg[] = "child";
    char *args[] = {arg, nullptr};
    MPI_Comm_spawn(argv[0], args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
                   MPI_ERRCODES_IGNORE);
  }
  int remote = 0;
  MPI_Comm_remote_size(inter, &remote);
  CHECK(remote == 2, "remote group has %d processes", remote);

  MPI_Comm merged, dup;
  MPI_Intercomm_merge(inter, child ? 1 : 0, &merged);
  MPI_Comm_dup(merged, &dup);
  int rank = -1, one = 1, sum = 0;
  MPI_Comm_rank(dup, &rank);
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
  CHECK(child || sum == 4, "Allreduce over parents and children gave %d", sum);
  int mine = child ? 10 : 1, remote_sum = 0;
  MPI_Allreduce(&mine, &remote_sum, 1, MPI_INT, MPI_SUM, inter);
  CHECK(child || remote_sum == 20, "Allreduce over the intercommunicator gave %d", remote_sum);
  CHECK(!child || rank >= 2, "child has rank %d in the merge (the parents come first)", rank);

  MPI_Comm_free(&dup);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&inter);
  if (!child)
    mpitest::pass();
  MPI_Finalize();
  return 0;
}
