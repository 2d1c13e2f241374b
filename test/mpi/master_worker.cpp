// master_worker: a self-scheduling task farm.
//
// Rank 0 (the master) hands out ITER tasks per worker with MPI_Send, one at a
// time per worker.  A worker receives from the master with MPI_ANY_TAG, stops
// on TAG_STOP, and otherwise computes the task and sends the result back.  The
// master receives results with MPI_ANY_SOURCE and MPI_ANY_TAG, learns from the
// status which worker finished, and sends that worker the next task or, when
// none is left, TAG_STOP.  Tasks and stops have the same count and datatype,
// results all have the same count, datatype and tag.  Which worker computes
// which task depends on timing; the results do not.
//
// The master checks each result's source, tag and count, that it answers the
// task the worker was given, that it is the task's correct value, and that
// every task came back exactly once; each worker checks that it was stopped
// with TAG_STOP after tasks it could compute.
//
// Usage: master_worker [-n ITER]   (default: 20 tasks per worker)
// Runs with 2 or more ranks.
#include "mpi_test_util.h"

#include <string>
#include <vector>

namespace {

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 3 };

// A task is {id, work}; its result is {id, value}.
int task_work(int id) { return 50 + (id * 37) % 200; }

long long task_value(int id, int work) {
  long long v = id;
  for (int i = 0; i < work; ++i)
    v = (v * 48271 + i) % 1000000007; // no overflow: v < 2^30
  return v;
}

void run_master(int size, int ntasks) {
  const int workers = size - 1;
  std::vector<int> given(size, -1); // the task each worker is computing
  std::vector<char> done(ntasks, 0);
  int next = 0, outstanding = 0, received = 0;
  int task[2];

  // Hand a worker its next task, or stop it.
  auto dispatch = [&](int worker) {
    if (next < ntasks) {
      task[0] = next;
      task[1] = task_work(next);
      given[worker] = next++;
      MPI_Send(task, 2, MPI_INT, worker, TAG_TASK, MPI_COMM_WORLD);
      ++outstanding;
    } else {
      task[0] = task[1] = -1;
      given[worker] = -1;
      MPI_Send(task, 2, MPI_INT, worker, TAG_STOP, MPI_COMM_WORLD);
    }
  };

  for (int w = 1; w <= workers; ++w)
    dispatch(w);
  while (outstanding > 0) {
    long long result[2] = {-1, -1};
    MPI_Status st;
    MPI_Recv(result, 2, MPI_LONG_LONG, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    --outstanding;
    const int w = st.MPI_SOURCE;
    CHECK(w >= 1 && w <= workers, "result from unexpected source %d", w);
    CHECK_STATUS(st, MPI_LONG_LONG, w, TAG_RESULT, 2, "result");
    const int id = given[w];
    CHECK(id >= 0 && result[0] == id, "worker %d answered task %lld, but was given task %d", w,
          result[0], id);
    CHECK(!done[id], "task %d came back twice", id);
    const long long want = task_value(id, task_work(id));
    CHECK(result[1] == want, "task %d computed by worker %d: %lld, expected %lld", id, w, result[1],
          want);
    done[id] = 1;
    ++received;
    dispatch(w);
  }
  CHECK(received == ntasks, "%d results for %d tasks", received, ntasks);
}

void run_worker() {
  int task[2];
  long long result[2];
  for (;;) {
    MPI_Status st;
    MPI_Recv(task, 2, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    CHECK(st.MPI_TAG == TAG_TASK || st.MPI_TAG == TAG_STOP, "message with unexpected tag %d",
          st.MPI_TAG);
    CHECK_STATUS(st, MPI_INT, 0, st.MPI_TAG, 2, "task");
    if (st.MPI_TAG == TAG_STOP) {
      CHECK(task[0] == -1 && task[1] == -1, "stop message carries %d/%d", task[0], task[1]);
      return;
    }
    CHECK(task[0] >= 0 && task[1] == task_work(task[0]), "task %d with work %d", task[0], task[1]);
    result[0] = task[0];
    result[1] = task_value(task[0], task[1]);
    MPI_Send(result, 2, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("master_worker");

  int iters = 20;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "-n" && a + 1 < argc)
      iters = mpitest::parse_count(argv[++a], "-n", 0);
    else
      mpitest::fail("unknown argument '%s' (usage: master_worker [-n ITER])", arg.c_str());
  }

  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size >= 2, "needs at least 2 ranks, got %d", size);

  if (rank == 0)
    run_master(size, iters * (size - 1));
  else
    run_worker();

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
