// info_values: the contents of info objects, as MPI gives them back.
//
// MPI_Info_dup copies every key (also after the original changed), keys
// and values read back with MPI_Info_get/get_valuelen/get_nthkey/get_nkeys
// (MPI_Info_get_string where the header is MPI 4), a key that is missing
// (flag 0: MPI writes no value), a communicator's info through
// MPI_Comm_set_info, MPI_Comm_dup_with_info, MPI_Comm_dup and
// MPI_Comm_get_info, a window's through MPI_Win_set_info/MPI_Win_get_info,
// and what comes from the environment: MPI_INFO_ENV, the processor name, the
// library version and MPI_Comm_c2f/MPI_Comm_f2c. Runs with 1 or more ranks.
#include "mpi_test_util.h"

#include <cstdio>
#include <cstring>
#include <string>

namespace {

// The value of `key` in `info`, or "" with *flag 0. The buffer starts with
// text of an earlier call, as a program's buffer does.
std::string value_of(MPI_Info info, const char *key, int *flag) {
  static char value[MPI_MAX_INFO_VAL + 1] = "stale text";
  MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, flag);
  return *flag ? std::string(value) : std::string();
}

int valuelen_of(MPI_Info info, const char *key, int *flag) {
  int len = -7; // stays if the key is missing
  MPI_Info_get_valuelen(info, key, &len, flag);
  return len;
}

int nkeys_of(MPI_Info info) {
  int n = -1;
  MPI_Info_get_nkeys(info, &n);
  return n;
}

// The user's keys (those starting with "pilgrim_") among the info's keys.
int user_keys(MPI_Info info) {
  int count = 0;
  for (int k = 0, n = nkeys_of(info); k < n; ++k) {
    char key[MPI_MAX_INFO_KEY + 1];
    MPI_Info_get_nthkey(info, k, key);
    count += std::strncmp(key, "pilgrim_", 8) == 0;
  }
  return count;
}

} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mpitest::set_name("info_values");
  const int rank = mpitest::comm_rank(MPI_COMM_WORLD);
  int flag = -1;

  // --- An info and its duplicate -------------------------------------------
  MPI_Info info = MPI_INFO_NULL, dup = MPI_INFO_NULL;
  MPI_Info_create(&info);
  char pairs[64];
  std::snprintf(pairs, sizeof pairs, "%d:1000:4,%d:1000:7", rank + 2, rank + 3);
  MPI_Info_set(info, "pilgrim_pairs", pairs);
  MPI_Info_set(info, "pilgrim_mode", "fast");
  MPI_Info_dup(info, &dup);
  MPI_Info_set(info, "pilgrim_mode", "slow"); // the duplicate keeps "fast"
  MPI_Info_delete(info, "pilgrim_pairs");
  CHECK(value_of(dup, "pilgrim_pairs", &flag) == pairs && flag, "the duplicate lost a key");
  CHECK(value_of(dup, "pilgrim_mode", &flag) == "fast" && flag, "the duplicate changed");
  CHECK(value_of(info, "pilgrim_mode", &flag) == "slow" && flag, "the original did not change");
  CHECK(value_of(info, "pilgrim_pairs", &flag).empty() && !flag, "a deleted key is there");
  CHECK(valuelen_of(dup, "pilgrim_pairs", &flag) == int(std::strlen(pairs)) && flag,
        "Info_get_valuelen of a key");
  CHECK(valuelen_of(dup, "pilgrim_none", &flag) == -7 && !flag,
        "Info_get_valuelen of a missing key wrote a length");
  CHECK(nkeys_of(dup) == 2 && user_keys(dup) == 2, "the duplicate has %d keys", nkeys_of(dup));
#if MPI_VERSION >= 4
  {
    char value[16] = "stale";
    int buflen = sizeof value;
    MPI_Info_get_string(dup, "pilgrim_mode", &buflen, value, &flag);
    CHECK(flag && std::strcmp(value, "fast") == 0, "Info_get_string gave '%s'", value);
    buflen = sizeof value;
    MPI_Info_get_string(dup, "pilgrim_none", &buflen, value, &flag);
    CHECK(!flag, "Info_get_string found a missing key");
  }
#endif

  // --- A communicator's info ---------------------------------------------------
  MPI_Comm comm = MPI_COMM_NULL, comm_dup = MPI_COMM_NULL, comm_info = MPI_COMM_NULL;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, dup, &comm_info);
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_info(comm, info);
  MPI_Comm_dup(comm, &comm_dup);
  for (MPI_Comm c : {comm_info, comm, comm_dup}) {
    MPI_Info used = MPI_INFO_NULL;
    MPI_Comm_get_info(c, &used);
    // Which keys MPI keeps is its own choice; asking is what the proxy replays.
    value_of(used, "pilgrim_mode", &flag);
    value_of(used, "pilgrim_pairs", &flag);
    user_keys(used);
    MPI_Info_free(&used);
  }
  MPI_Comm_free(&comm_dup);
  MPI_Comm_free(&comm);
  MPI_Comm_free(&comm_info);

  // --- A window's info -------------------------------------------------------------
  MPI_Win win = MPI_WIN_NULL;
  MPI_Win_create(nullptr, 0, 1, dup, MPI_COMM_WORLD, &win);
  MPI_Win_set_info(win, info);
  MPI_Info used = MPI_INFO_NULL;
  MPI_Win_get_info(win, &used);
  value_of(used, "pilgrim_mode", &flag);
  user_keys(used);
  MPI_Info_free(&used);
  MPI_Win_free(&win);

  // --- From the environment -------------------------------------------------------
  value_of(MPI_INFO_ENV, "command", &flag);
  value_of(MPI_INFO_ENV, "maxprocs", &flag);
  nkeys_of(MPI_INFO_ENV);
  MPI_Info env = MPI_INFO_NULL;
  MPI_Info_dup(MPI_INFO_ENV, &env);
  value_of(env, "command", &flag);
  MPI_Info_free(&env);
  {
    char name[MPI_MAX_PROCESSOR_NAME];
    int len = 0;
    MPI_Get_processor_name(name, &len);
    CHECK(len > 0, "no processor name");
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    MPI_Get_library_version(version, &len);
    CHECK(len > 0, "no library version");
  }
  MPI_Fint fcomm = MPI_Comm_c2f(MPI_COMM_WORLD);
  MPI_Comm back = MPI_Comm_f2c(fcomm);
  CHECK(back == MPI_COMM_WORLD, "Comm_f2c(Comm_c2f(world)) is not world");

  MPI_Info_free(&info);
  MPI_Info_free(&dup);
  mpitest::pass();
  MPI_Finalize();
  return 0;
}
