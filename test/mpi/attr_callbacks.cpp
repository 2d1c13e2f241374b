// attr_callbacks: what the application's attribute callbacks decide.
//
// Copy callbacks that copy some attributes and not others (flag 0), copy
// callbacks and delete callbacks that fail (the MPI call that ran them then
// fails: MPI_Comm_dup, MPI_Comm_set_attr and MPI_Comm_delete_attr, the
// deprecated MPI_Attr_put/MPI_Attr_delete, MPI_Type_set_attr,
// MPI_Type_dup), on communicators, datatypes and windows; and the deprecated
// predefined callbacks MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN and MPI_DUP_FN.
// Errors are returned (MPI_ERRORS_RETURN on MPI_COMM_WORLD and
// MPI_COMM_SELF). Runs with 1 or more ranks.
#include "mpi_test_util.h"

// MPI_Attr_put, MPI_Keyval_create and MPI_NULL_COPY_FN are deprecated, on purpose.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

// Attribute values are pointers to these; the copy of value k is value k+1.
long g_values[8] = {10, 11, 20, 21, 30, 31, 40, 41};

int copies = 0, deletes = 0;

// Copies values whose number is even, leaves the others out (flag 0).
int copy_even(MPI_Comm, int, void *, void *in, void *out, int *flag) {
  ++copies;
  long *v = static_cast<long *>(in);
  *flag = *v % 2 == 0;
  if (*flag)
    *static_cast<void **>(out) = v + 1;
  return MPI_SUCCESS;
}

int delete_counting(MPI_Comm, int, void *, void *) {
  ++deletes;
  return MPI_SUCCESS;
}

// Fails for the value 30 and copies the others.
int copy_failing(MPI_Comm, int, void *, void *in, void *out, int *flag) {
  ++copies;
  long *v = static_cast<long *>(in);
  if (*v == 30)
    return MPI_ERR_OTHER;
  *static_cast<void **>(out) = v + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

// Refuses to delete the value 20 (the call that deletes it fails).
int delete_refusing(MPI_Comm, int, void *value, void *) {
  ++deletes;
  return *static_cast<long *>(value) == 20 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int type_copy(MPI_Datatype, int, void *, void *in, void *out, int *flag) {
  ++copies;
  *static_cast<void **>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int type_delete_refusing(MPI_Datatype, int, void *value, void *) {
  ++deletes;
  return *static_cast<long *>(value) == 40 ? MPI_ERR_OTHER : MPI_SUCCESS;
}

int win_delete(MPI_Win, int, void *, void *) {
  ++deletes;
  return MPI_SUCCESS;
}

bool has_attr(MPI_Comm comm, int keyval, void **value) {
  int flag = 0;
  MPI_Comm_get_attr(comm, keyval, value, &flag);
  return flag != 0;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("attr_callbacks");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  void *value = nullptr;

  // --- Copy callbacks decide which attributes a duplicate has --------------
  {
    int even = MPI_KEYVAL_INVALID, odd = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(copy_even, delete_counting, &even, nullptr);
    MPI_Comm_create_keyval(copy_even, delete_counting, &odd, nullptr);
    MPI_Comm base = MPI_COMM_NULL, dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_attr(base, even, &g_values[0]);
    MPI_Comm_set_attr(base, odd, &g_values[1]);
    MPI_Comm_dup(base, &dup);
    CHECK(copies == 2, "Comm_dup ran %d copy callbacks", copies);
    CHECK(has_attr(dup, even, &value) && value == &g_values[1], "the even value was not copied");
    CHECK(!has_attr(dup, odd, &value), "the odd value was copied");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&base);
    CHECK(deletes == 3, "freeing ran %d delete callbacks", deletes);
    MPI_Comm_free_keyval(&even);
    MPI_Comm_free_keyval(&odd);
  }

  // --- Failing copy and delete callbacks ------------------------------------
  {
    int failing = MPI_KEYVAL_INVALID, refusing = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(copy_failing, delete_counting, &failing, nullptr);
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, delete_refusing, &refusing, nullptr);
    MPI_Comm base = MPI_COMM_NULL, dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Comm_set_attr(base, failing, &g_values[4]); // 30: its copy fails
    int rc = MPI_Comm_dup(base, &dup);
    CHECK(rc != MPI_SUCCESS && dup == MPI_COMM_NULL, "Comm_dup with a failing copy gave %d", rc);
    MPI_Comm_set_attr(base, failing, &g_values[6]);
    rc = MPI_Comm_dup(base, &dup);
    CHECK(rc == MPI_SUCCESS && has_attr(dup, failing, &value) && value == &g_values[7],
          "Comm_dup after the failing value gave %d", rc);
    MPI_Comm_free(&dup);

    MPI_Comm_set_attr(base, refusing, &g_values[2]); // 20: not deleted
    rc = MPI_Comm_set_attr(base, refusing, &g_values[3]);
    CHECK(rc != MPI_SUCCESS, "replacing a value whose delete fails succeeded");
    rc = MPI_Comm_delete_attr(base, refusing);
    CHECK(rc != MPI_SUCCESS, "deleting a value whose delete fails succeeded");
    rc = MPI_Attr_put(base, refusing, &g_values[3]);
    CHECK(rc != MPI_SUCCESS, "Attr_put over a value whose delete fails succeeded");
    rc = MPI_Attr_delete(base, refusing);
    CHECK(rc != MPI_SUCCESS, "Attr_delete of a value whose delete fails succeeded");
    MPI_Comm_free_keyval(&failing);
    MPI_Comm_free_keyval(&refusing);
    // base still holds the refused value: it is left to MPI_Finalize.
  }

  // --- Datatype and window attributes -----------------------------------------
  {
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Type_create_keyval(type_copy, type_delete_refusing, &keyval, nullptr);
    MPI_Datatype type = MPI_DATATYPE_NULL, dup = MPI_DATATYPE_NULL;
    MPI_Type_contiguous(2, MPI_INT, &type);
    MPI_Type_set_attr(type, keyval, &g_values[6]); // 40: not deleted
    int rc = MPI_Type_set_attr(type, keyval, &g_values[7]);
    CHECK(rc != MPI_SUCCESS, "Type_set_attr over a value whose delete fails succeeded");
    rc = MPI_Type_dup(type, &dup);
    CHECK(rc == MPI_SUCCESS, "Type_dup failed");
    int flag = 0;
    MPI_Type_get_attr(dup, keyval, &value, &flag);
    CHECK(flag && value == &g_values[6], "Type_dup did not copy the attribute");
    MPI_Type_free_keyval(&keyval);

    int wkey = MPI_KEYVAL_INVALID;
    MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &wkey, nullptr);
    MPI_Win win = MPI_WIN_NULL;
    MPI_Win_create(nullptr, 0, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_set_attr(win, wkey, &g_values[0]);
    const int before = deletes;
    MPI_Win_free(&win);
    CHECK(deletes == before + 1, "Win_free ran %d delete callbacks", deletes - before);
    MPI_Win_free_keyval(&wkey);
  }

  // --- The deprecated predefined callbacks ------------------------------------
  {
    int nulls = MPI_KEYVAL_INVALID, dups = MPI_KEYVAL_INVALID;
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &nulls, nullptr);
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &dups, nullptr);
    MPI_Comm base = MPI_COMM_NULL, dup = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &base);
    MPI_Attr_put(base, nulls, &g_values[0]);
    MPI_Attr_put(base, dups, &g_values[1]);
    MPI_Comm_dup(base, &dup);
    int flag = 0;
    MPI_Attr_get(dup, nulls, &value, &flag);
    CHECK(!flag, "MPI_NULL_COPY_FN copied the attribute");
    MPI_Attr_get(dup, dups, &value, &flag);
    CHECK(flag && value == &g_values[1], "MPI_DUP_FN did not copy the attribute");
    MPI_Comm_free(&dup);
    MPI_Comm_free(&base);
    MPI_Keyval_free(&nulls);
    MPI_Keyval_free(&dups);
  }

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
