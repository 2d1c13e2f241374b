// `use mpi_f08` whose MPI_Init never reaches the tracer: MPICH's mpi_f08
// module calls PMPI_* itself (README, "Fortran"), so such a run would write
// no trace and say nothing. The tracer takes the module's MPI_Init and
// MPI_Init_thread (mpi_init_f08_, mpi_init_thread_f08_), forwards them to
// the MPI's, and if recording did not start says so in one line from rank 0.
// Open MPI's module reaches the C wrapper through the Fortran entry points
// (ompi_init_f), recording starts, and nothing is said.
#include "call.h"
#include "recorder.h"

#include <mpi.h>

#include <cstdio>
#include <dlfcn.h>

namespace {

void say_if_untraced() {
  if (pilgrim::rt::Recorder::get().state.load(std::memory_order_acquire) !=
      pilgrim::rt::State::BeforeInit)
    return;
  int initialized = 0, rank = 0;
  PMPI_Initialized(&initialized);
  if (initialized)
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    std::fprintf(stderr, "pilgrim: this MPI's use mpi_f08 calls PMPI_* directly and is not "
                         "traced: no trace will be written (README, \"Fortran\")\n");
}

template <class F> F next_symbol(const char *name) {
  return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

} // namespace

extern "C" PILGRIM_EXPORT void mpi_init_f08_(MPI_Fint *ierror) {
  using Init = void (*)(MPI_Fint *);
  static const Init next = next_symbol<Init>("mpi_init_f08_");
  if (!next) {
    if (ierror)
      *ierror = MPI_ERR_OTHER;
    return;
  }
  next(ierror);
  say_if_untraced();
}

extern "C" PILGRIM_EXPORT void mpi_init_thread_f08_(const MPI_Fint *required, MPI_Fint *provided,
                                                    MPI_Fint *ierror) {
  using InitThread = void (*)(const MPI_Fint *, MPI_Fint *, MPI_Fint *);
  static const InitThread next = next_symbol<InitThread>("mpi_init_thread_f08_");
  if (!next) {
    if (ierror)
      *ierror = MPI_ERR_OTHER;
    return;
  }
  next(required, provided, ierror);
  say_if_untraced();
}
