// keyval_lifetime: a keyval freed while attributes still use it.
//
// MPI_Comm_free_keyval resets the program's variable, but MPI keeps the
// keyval alive while an attribute uses it, and the program may go on using
// the value it kept in another variable: MPI_Comm_get_attr,
// MPI_Comm_set_attr (which deletes the old value) and MPI_Comm_delete_attr
// with the freed keyval, also after another keyval was created meanwhile,
// on a communicator and on a datatype. Once the last attribute is gone MPI
// hands the value out again to the next keyval it creates. Runs with 1 or
// more ranks.
#include "mpi_test_util.h"

namespace {

long g_values[4] = {1, 2, 3, 4};
int deletes = 0;

int count_delete(MPI_Comm, int, void *, void *) {
  ++deletes;
  return MPI_SUCCESS;
}

int count_type_delete(MPI_Datatype, int, void *, void *) {
  ++deletes;
  return MPI_SUCCESS;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("keyval_lifetime");
  void *value = nullptr;
  int flag = 0;

  // A communicator keyval, freed while its attribute is set.
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  int keyval = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &keyval, nullptr);
  const int kept = keyval;
  MPI_Comm_set_attr(comm, keyval, &g_values[0]);
  MPI_Comm_free_keyval(&keyval);
  CHECK(keyval == MPI_KEYVAL_INVALID, "Comm_free_keyval did not reset the variable");
  int other = MPI_KEYVAL_INVALID; // while `kept` lives, a keyval of another value
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &other, nullptr);
  CHECK(other != kept, "a live keyval's value was handed out again");
  MPI_Comm_set_attr(comm, other, &g_values[3]);
  MPI_Comm_get_attr(comm, kept, &value, &flag);
  CHECK(flag && value == &g_values[0], "the freed keyval's attribute is gone");
  MPI_Comm_set_attr(comm, kept, &g_values[1]);
  CHECK(deletes == 1, "replacing the value ran %d deletes", deletes);
  MPI_Comm_delete_attr(comm, kept);
  CHECK(deletes == 2, "deleting the value ran %d deletes", deletes);
  MPI_Comm_delete_attr(comm, other);
  MPI_Comm_free_keyval(&other);
  CHECK(deletes == 3, "deleting the other value ran %d deletes", deletes - 2);

  // Now MPI may reuse the value for a new keyval.
  int again = MPI_KEYVAL_INVALID;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &again, nullptr);
  MPI_Comm_get_attr(comm, again, &value, &flag);
  CHECK(!flag, "a new keyval has an attribute");
  MPI_Comm_set_attr(comm, again, &g_values[2]);
  MPI_Comm_free_keyval(&again);
  MPI_Comm_free(&comm); // deletes the last attribute: the keyval goes
  CHECK(deletes == 4, "freeing the communicator ran %d deletes", deletes - 3);

  // A datatype keyval, freed while in use.
  MPI_Datatype type = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(4, MPI_BYTE, &type);
  int tkey = MPI_KEYVAL_INVALID;
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, count_type_delete, &tkey, nullptr);
  const int tkept = tkey;
  MPI_Type_set_attr(type, tkey, &g_values[3]);
  MPI_Type_free_keyval(&tkey);
  MPI_Type_get_attr(type, tkept, &value, &flag);
  CHECK(flag && value == &g_values[3], "the freed type keyval's attribute is gone");
  MPI_Type_delete_attr(type, tkept);
  CHECK(deletes == 5, "deleting the type attribute ran %d deletes", deletes - 4);
  MPI_Type_free(&type);

  mpitest::pass();
  MPI_Finalize();
  return 0;
}
