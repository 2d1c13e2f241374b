// info_attr: info objects, attribute caching, names and environment queries.
//
// MPI_Initialized/MPI_Finalized (before and after MPI_Init_thread /
// MPI_Finalize), MPI_Query_thread, MPI_Is_thread_main, MPI_Info_create/set/
// get/get_valuelen/get_nkeys/get_nthkey/dup/delete/free (MPI_Info_get_string
// where the header is MPI 4), MPI_Comm_dup_with_info, MPI_Comm_get_info,
// MPI_Comm_create_keyval/set_attr/get_attr/delete_attr/free_keyval with copy
// and delete callbacks verified to run on MPI_Comm_dup/MPI_Comm_free,
// predefined attributes (MPI_TAG_UB), MPI_Comm_set_name/get_name,
// MPI_Get_processor_name, MPI_Get_version, MPI_Get_library_version.
// Runs with 1 or more ranks.
#include "mpi_test_util.h"

#include <cstring>
#include <set>
#include <string>

namespace {

// Bookkeeping for the attribute callbacks.
struct CallbackLog {
  int copies = 0;
  int deletes = 0;
  long last_deleted = 0;
};

// Values are stored as pointers to longs owned by the test.
long g_values[4] = {100, 200, 300, 400};

int copy_attr(MPI_Comm, int, void *extra_state, void *attribute_val_in, void *attribute_val_out,
              int *flag) {
  CallbackLog *log = static_cast<CallbackLog *>(extra_state);
  ++log->copies;
  // The copy of value k is value k+1.
  long *in = static_cast<long *>(attribute_val_in);
  *static_cast<void **>(attribute_val_out) = in + 1;
  *flag = 1;
  return MPI_SUCCESS;
}

int delete_attr(MPI_Comm, int, void *attribute_val, void *extra_state) {
  CallbackLog *log = static_cast<CallbackLog *>(extra_state);
  ++log->deletes;
  log->last_deleted = *static_cast<long *>(attribute_val);
  return MPI_SUCCESS;
}

std::string info_value(MPI_Info info, const char *key, int *flag) {
  char value[MPI_MAX_INFO_VAL + 1];
  value[0] = '\0';
  MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, flag);
  return *flag ? std::string(value) : std::string();
}

}  // namespace

int main(int argc, char **argv) {
  mpitest::set_name("info_attr");
  int flag = -1;
  MPI_Initialized(&flag);
  if (flag) mpitest::fail("MPI_Initialized is true before MPI_Init");
  MPI_Finalized(&flag);
  if (flag) mpitest::fail("MPI_Finalized is true before MPI_Init");

  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);

  MPI_Initialized(&flag);
  CHECK(flag, "MPI_Initialized is false after MPI_Init_thread");
  MPI_Finalized(&flag);
  CHECK(!flag, "MPI_Finalized is true before MPI_Finalize");
  CHECK(provided >= MPI_THREAD_SINGLE && provided <= MPI_THREAD_MULTIPLE,
        "Init_thread provided %d", provided);
  int queried = -1;
  MPI_Query_thread(&queried);
  CHECK(queried == provided, "Query_thread gave %d, Init_thread provided %d", queried, provided);
  MPI_Is_thread_main(&flag);
  CHECK(flag, "Is_thread_main is false on the main thread");

  // --- Environment queries -----------------------------------------------------
  {
    int version = -1, subversion = -1;
    MPI_Get_version(&version, &subversion);
    CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION,
          "Get_version gave %d.%d, header says %d.%d", version, subversion, MPI_VERSION,
          MPI_SUBVERSION);
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1;
    MPI_Get_library_version(lib, &len);
    CHECK(len > 0 && len < MPI_MAX_LIBRARY_VERSION_STRING && int(std::strlen(lib)) <= len,
          "Get_library_version gave length %d", len);
    char host[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(host, &len);
    CHECK(len > 0 && len < MPI_MAX_PROCESSOR_NAME && int(std::strlen(host)) == len,
          "Get_processor_name gave length %d for '%s'", len, host);
    void *tag_ub = nullptr;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag);
    CHECK(flag && *static_cast<int *>(tag_ub) >= 32767, "MPI_TAG_UB attribute missing or small");
  }

  // --- Info objects --------------------------------------------------------------
  MPI_Info info = MPI_INFO_NULL, copy = MPI_INFO_NULL;
  {
    MPI_Info_create(&info);
    int nkeys = -1;
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 0, "new info has %d keys", nkeys);
    MPI_Info_set(info, "pilgrim_alpha", "1");
    MPI_Info_set(info, "pilgrim_beta", "two words");
    MPI_Info_set(info, "pilgrim_gamma", "3.0");
    MPI_Info_set(info, "pilgrim_alpha", "one");  // overwrite
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 3, "info has %d keys, expected 3", nkeys);

    std::set<std::string> keys;
    for (int k = 0; k < nkeys; ++k) {
      char key[MPI_MAX_INFO_KEY + 1];
      MPI_Info_get_nthkey(info, k, key);
      keys.insert(key);
    }
    CHECK(keys == std::set<std::string>({"pilgrim_alpha", "pilgrim_beta", "pilgrim_gamma"}),
          "Info_get_nthkey returned unexpected keys");

    CHECK(info_value(info, "pilgrim_alpha", &flag) == "one" && flag, "Info_get(alpha) failed");
    CHECK(info_value(info, "pilgrim_beta", &flag) == "two words" && flag,
          "Info_get(beta) failed");
    info_value(info, "pilgrim_missing", &flag);
    CHECK(!flag, "Info_get found a key that was never set");
    int valuelen = -1;
    MPI_Info_get_valuelen(info, "pilgrim_beta", &valuelen, &flag);
    CHECK(flag && valuelen == 9, "Info_get_valuelen gave %d", valuelen);
#if MPI_VERSION >= 4
    {
      char value[16];
      int buflen = sizeof value;
      MPI_Info_get_string(info, "pilgrim_gamma", &buflen, value, &flag);
      CHECK(flag && buflen == 4 && std::strcmp(value, "3.0") == 0,
            "Info_get_string gave '%s' (buflen %d)", value, buflen);
    }
#endif

    MPI_Info_dup(info, &copy);
    MPI_Info_delete(info, "pilgrim_gamma");
    MPI_Info_get_nkeys(info, &nkeys);
    CHECK(nkeys == 2, "info has %d keys after Info_delete", nkeys);
    info_value(info, "pilgrim_gamma", &flag);
    CHECK(!flag, "deleted key is still present");
    CHECK(info_value(copy, "pilgrim_gamma", &flag) == "3.0" && flag,
          "Info_dup copy lost a key deleted from the original");
    MPI_Info_get_nkeys(copy, &nkeys);
    CHECK(nkeys == 3, "info copy has %d keys", nkeys);
  }

  // --- Communicator with info, names ----------------------------------------------
  MPI_Comm named = MPI_COMM_NULL;
  {
    MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &named);
    MPI_Info used = MPI_INFO_NULL;
    MPI_Comm_get_info(named, &used);
    CHECK(used != MPI_INFO_NULL, "Comm_get_info returned MPI_INFO_NULL");
    MPI_Info_free(&used);

    char name[MPI_MAX_OBJECT_NAME];
    int len = -1;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    CHECK(std::strcmp(name, "MPI_COMM_WORLD") == 0 && len == 14, "world is named '%s'", name);
    MPI_Comm_set_name(named, "pilgrim-test-comm");
    MPI_Comm_get_name(named, name, &len);
    CHECK(std::strcmp(name, "pilgrim-test-comm") == 0 && len == 17, "Comm_get_name gave '%s'",
          name);
  }

  // --- Attribute caching with copy/delete callbacks ------------------------
  {
    CallbackLog log;
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(copy_attr, delete_attr, &keyval, &log);
    CHECK(keyval != MPI_KEYVAL_INVALID, "Comm_create_keyval gave MPI_KEYVAL_INVALID");

    void *value = nullptr;
    MPI_Comm_get_attr(named, keyval, &value, &flag);
    CHECK(!flag, "attribute present before Comm_set_attr");
    MPI_Comm_set_attr(named, keyval, &g_values[0]);
    MPI_Comm_get_attr(named, keyval, &value, &flag);
    CHECK(flag && value == &g_values[0], "Comm_get_attr did not return the stored value");
    // Replacing a value deletes the old one.
    MPI_Comm_set_attr(named, keyval, &g_values[1]);
    CHECK(log.deletes == 1 && log.last_deleted == 100,
          "replacing an attribute: %d deletes, last deleted %ld", log.deletes, log.last_deleted);

    // Comm_dup runs the copy callback; the duplicate holds the copied value.
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(named, &dup);
    CHECK(log.copies == 1, "Comm_dup ran the copy callback %d times", log.copies);
    MPI_Comm_get_attr(dup, keyval, &value, &flag);
    CHECK(flag && value == &g_values[2], "the duplicate holds %ld, expected 300",
          flag ? *static_cast<long *>(value) : -1L);
    // Comm_free runs the delete callback for the duplicate's value.
    MPI_Comm_free(&dup);
    CHECK(log.deletes == 2 && log.last_deleted == 300,
          "Comm_free: %d deletes, last deleted %ld", log.deletes, log.last_deleted);

    // Comm_delete_attr runs the delete callback too.
    MPI_Comm_delete_attr(named, keyval);
    CHECK(log.deletes == 3 && log.last_deleted == 200,
          "Comm_delete_attr: %d deletes, last deleted %ld", log.deletes, log.last_deleted);
    MPI_Comm_get_attr(named, keyval, &value, &flag);
    CHECK(!flag, "attribute present after Comm_delete_attr");

    // An attribute still set when the communicator is freed is deleted then,
    // even after the keyval itself was freed.
    MPI_Comm_set_attr(named, keyval, &g_values[3]);
    MPI_Comm_free_keyval(&keyval);
    CHECK(keyval == MPI_KEYVAL_INVALID, "Comm_free_keyval did not reset the keyval");
    MPI_Comm_free(&named);
    CHECK(log.deletes == 4 && log.last_deleted == 400 && log.copies == 1,
          "final Comm_free: %d deletes, last deleted %ld, %d copies", log.deletes,
          log.last_deleted, log.copies);
  }

  MPI_Info_free(&info);
  MPI_Info_free(&copy);
  CHECK(info == MPI_INFO_NULL && copy == MPI_INFO_NULL, "Info_free did not reset the handles");

  // Everybody has passed all checks; the final checks run after MPI_Finalize.
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  MPI_Finalized(&flag);
  if (!flag) mpitest::fail("MPI_Finalized is false after MPI_Finalize");
  MPI_Initialized(&flag);
  if (!flag) mpitest::fail("MPI_Initialized is false after MPI_Finalize");
  if (rank == 0) {
    std::printf("info_attr: OK\n");
    std::fflush(stdout);
  }
  return 0;
}
