// errhandler: error handlers and error codes.
//
// MPI_Comm_get_errhandler/MPI_Comm_set_errhandler with MPI_ERRORS_RETURN,
// errors provoked on purpose (send to an invalid rank, negative tag,
// negative count) checked with MPI_Error_class and MPI_Error_string,
// MPI_Comm_create_errhandler with a user handler that records its calls,
// MPI_Comm_call_errhandler, MPI_Add_error_class/MPI_Add_error_code/
// MPI_Add_error_string (and the MPI_LASTUSEDCODE attribute), and
// MPI_Errhandler_free.  The erroneous calls fail in local argument checks and
// never reach another process.  Runs with 1 or more ranks.
#include "mpi_test_util.h"

#include <cstring>

namespace {

int g_handler_calls = 0;
int g_last_code = MPI_SUCCESS;
MPI_Comm g_last_comm = MPI_COMM_NULL;

void record_error(MPI_Comm *comm, int *code, ...) {
  ++g_handler_calls;
  g_last_code = *code;
  g_last_comm = *comm;
}

int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}

void check_error(int code, int want_class, const char *what) {
  CHECK(code != MPI_SUCCESS, "%s succeeded", what);
  const int cls = error_class(code);
  char msg[MPI_MAX_ERROR_STRING];
  int len = -1;
  MPI_Error_string(code, msg, &len);
  CHECK(cls == want_class, "%s: error class %d, expected %d (%s)", what, cls, want_class, msg);
  CHECK(len > 0 && len < MPI_MAX_ERROR_STRING && int(std::strlen(msg)) == len,
        "%s: Error_string gave length %d", what, len);
}

}  // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("errhandler");
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);

  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);

  // --- The inherited handler is MPI_ERRORS_ARE_FATAL -----------------------
  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(comm, &eh);
  CHECK(eh == MPI_ERRORS_ARE_FATAL, "default error handler is not MPI_ERRORS_ARE_FATAL");
  MPI_Errhandler_free(&eh);
  CHECK(eh == MPI_ERRHANDLER_NULL, "Errhandler_free did not reset the handle");

  // --- MPI_ERRORS_RETURN: erroneous calls return error codes ---------------
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  MPI_Comm_get_errhandler(comm, &eh);
  CHECK(eh == MPI_ERRORS_RETURN, "Comm_get_errhandler does not return MPI_ERRORS_RETURN");
  MPI_Errhandler_free(&eh);
  int buf[4] = {1, 2, 3, 4};
  check_error(MPI_Send(buf, 4, MPI_INT, n, 0, comm), MPI_ERR_RANK, "Send to rank == size");
  check_error(MPI_Send(buf, 4, MPI_INT, 0, -5, comm), MPI_ERR_TAG, "Send with tag -5");
  check_error(MPI_Send(buf, -1, MPI_INT, 0, 0, comm), MPI_ERR_COUNT, "Send with count -1");
  // The communicator stays usable after the failed calls.
  int sum = 0;
  CHECK(MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS &&
            sum == n * (n - 1) / 2,
        "Allreduce after errors gave %d", sum);
  CHECK(error_class(MPI_SUCCESS) == MPI_SUCCESS, "MPI_SUCCESS is not of class MPI_SUCCESS");

  // --- A user-defined error handler -------------------------------------------
  MPI_Errhandler mine = MPI_ERRHANDLER_NULL;
  MPI_Comm_create_errhandler(record_error, &mine);
  MPI_Comm_set_errhandler(comm, mine);
  {
    MPI_Errhandler got = MPI_ERRHANDLER_NULL;
    MPI_Comm_get_errhandler(comm, &got);
    CHECK(got == mine, "Comm_get_errhandler does not return the user handler");
    MPI_Errhandler_free(&got);
  }
  const int err = MPI_Send(buf, 4, MPI_INT, n + 3, 0, comm);
  CHECK(g_handler_calls == 1 && g_last_comm == comm, "user handler ran %d times",
        g_handler_calls);
  CHECK(g_last_code == err && error_class(err) == MPI_ERR_RANK,
        "user handler saw code %d (class %d), call returned %d", g_last_code,
        error_class(g_last_code), err);

  CHECK(MPI_Comm_call_errhandler(comm, MPI_ERR_OTHER) == MPI_SUCCESS,
        "Comm_call_errhandler did not return MPI_SUCCESS");
  CHECK(g_handler_calls == 2 && g_last_code == MPI_ERR_OTHER,
        "Comm_call_errhandler: %d calls, last code %d", g_handler_calls, g_last_code);

  // --- User-defined error classes, codes and strings --------------------------
  {
    int new_class = -1, new_code = -1;
    MPI_Add_error_class(&new_class);
    MPI_Add_error_code(new_class, &new_code);
    MPI_Add_error_string(new_code, "pilgrim test error");
    CHECK(error_class(new_code) == new_class, "new code %d has class %d, expected %d", new_code,
          error_class(new_code), new_class);
    char msg[MPI_MAX_ERROR_STRING];
    int len = -1;
    MPI_Error_string(new_code, msg, &len);
    CHECK(std::strcmp(msg, "pilgrim test error") == 0 && len == 18,
          "Error_string of the new code gave '%s'", msg);
    void *last = nullptr;
    int flag = 0;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag);
    // Only compared with the new class: MPICH 4.0 raises MPI_LASTUSEDCODE
    // to the largest class, while its codes encode class and index and are
    // larger than that.
    CHECK(flag && *static_cast<int *>(last) >= new_class,
          "MPI_LASTUSEDCODE %d is below the new class %d", flag ? *static_cast<int *>(last) : -1,
          new_class);
    MPI_Comm_call_errhandler(comm, new_code);
    CHECK(g_handler_calls == 3 && g_last_code == new_code,
          "Comm_call_errhandler(new code): %d calls, last code %d", g_handler_calls, g_last_code);
  }

  // --- MPI_ERRORS_RETURN on MPI_COMM_WORLD, then back to fatal -----------------
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int dummy = 0;
  check_error(MPI_Recv(&dummy, 1, MPI_INT, n + 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
              MPI_ERR_RANK, "Recv from rank size+1");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  MPI_Errhandler_free(&mine);  // still referenced by comm until it is freed
  CHECK(mine == MPI_ERRHANDLER_NULL, "Errhandler_free did not reset the handle");
  MPI_Comm_free(&comm);
  CHECK(g_handler_calls == 3, "handler ran %d times", g_handler_calls);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
