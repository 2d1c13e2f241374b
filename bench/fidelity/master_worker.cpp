// Fidelity benchmark: a master/worker task farm.
//
// Rank 0 hands out N tasks per worker, one at a time per worker (MPI_Send); a
// worker receives a task (MPI_Recv, MPI_ANY_TAG), computes it and sends the
// result back; the master receives results with MPI_ANY_SOURCE, checks each
// against the closed form and sends that worker its next task or TAG_STOP.
// Task t costs W * (2 + t mod 5) / 2 terms of the sine-sum kernel: tasks vary
// 1x to 3x in cost, deterministically.
//
// Usage: master_worker [-n TASKS_PER_WORKER] [-w TERMS]  (defaults 2000, 15000)
// Runs with 2 or more ranks.
#include "fidelity_check.h"
#include "fidelity_kernel.h"

#include <vector>

namespace {

enum { TAG_TASK = 1, TAG_STOP = 2, TAG_RESULT = 3 };

long task_terms(long task, long w) { return w * (2 + task % 5) / 2; }
double task_x(long task) { return 0.001 + 1e-7 * double(task); }

void run_master(int size, long ntasks, long w) {
  std::vector<long> given(size, -1);
  std::vector<char> done(ntasks, 0);
  long next = 0, outstanding = 0;
  double task[2], result[2];
  auto dispatch = [&](int worker) {
    const bool stop = next >= ntasks;
    task[0] = stop ? -1 : double(next);
    task[1] = stop ? 0 : double(task_terms(next, w));
    given[worker] = stop ? -1 : next++;
    outstanding += stop ? 0 : 1;
    MPI_Send(task, 2, MPI_DOUBLE, worker, stop ? TAG_STOP : TAG_TASK, MPI_COMM_WORLD);
  };
  for (int worker = 1; worker < size; ++worker)
    dispatch(worker);
  while (outstanding > 0) {
    MPI_Status st;
    MPI_Recv(result, 2, MPI_DOUBLE, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &st);
    --outstanding;
    const int worker = st.MPI_SOURCE;
    const long t = long(result[0]);
    if (worker < 1 || worker >= size || t != given[worker] || t < 0 || t >= ntasks || done[t])
      fidelity::fail("unexpected result for task %ld from rank %d", t, worker);
    if (!fidelity::sine_sum_ok(result[1], task_terms(t, w), task_x(t)))
      fidelity::fail("task %ld: %.17g is wrong", t, result[1]);
    done[t] = 1;
    dispatch(worker);
  }
  for (long t = 0; t < ntasks; ++t)
    if (!done[t])
      fidelity::fail("task %ld never came back", t);
}

void run_worker() {
  double task[2], result[2];
  for (;;) {
    MPI_Status st;
    MPI_Recv(task, 2, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    if (st.MPI_TAG == TAG_STOP)
      return;
    const long t = long(task[0]);
    result[0] = task[0];
    result[1] = fidelity::sine_sum(long(task[1]), task_x(t));
    MPI_Send(result, 2, MPI_DOUBLE, 0, TAG_RESULT, MPI_COMM_WORLD);
  }
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  fidelity::g_name = "master_worker";
  const char *const names[] = {"-n", "-w"};
  long opt[] = {2000, 15000};
  fidelity::parse_options(argc, argv, 2, names, opt);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2)
    fidelity::fail("needs 2 or more ranks");
  if (rank == 0)
    run_master(size, opt[0] * (size - 1), opt[1]);
  else
    run_worker();
  MPI_Finalize();
  if (rank == 0)
    std::printf("master_worker: OK (%d ranks, %ld tasks)\n", size, opt[0] * (size - 1));
  return 0;
}
