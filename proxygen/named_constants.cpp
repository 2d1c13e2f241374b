#include "named_constants.h"

#include <vector>

namespace pilgrim::proxygen {

namespace {

struct Named {
  const char *name;
  int64_t openmpi; // value in Open MPI 4.1
  int64_t mpich;   // value in MPICH 4.0
};

const std::vector<Named> kOrder = {{"MPI_ORDER_C", 0, 56}, {"MPI_ORDER_FORTRAN", 1, 57}};
const std::vector<Named> kWinAssert = {{"MPI_MODE_NOCHECK", 1, 1024},
                                       {"MPI_MODE_NOSTORE", 8, 2048},
                                       {"MPI_MODE_NOPUT", 4, 4096},
                                       {"MPI_MODE_NOPRECEDE", 2, 8192},
                                       {"MPI_MODE_NOSUCCEED", 16, 16384}};
const std::vector<Named> kFileMode = {
    {"MPI_MODE_CREATE", 1, 1},         {"MPI_MODE_RDONLY", 2, 2},
    {"MPI_MODE_WRONLY", 4, 4},         {"MPI_MODE_RDWR", 8, 8},
    {"MPI_MODE_DELETE_ON_CLOSE", 16, 16}, {"MPI_MODE_UNIQUE_OPEN", 32, 32},
    {"MPI_MODE_EXCL", 64, 64},         {"MPI_MODE_APPEND", 128, 128},
    {"MPI_MODE_SEQUENTIAL", 256, 256}};
const std::vector<Named> kLockType = {{"MPI_LOCK_EXCLUSIVE", 1, 234}, {"MPI_LOCK_SHARED", 2, 235}};
const std::vector<Named> kSplitType = {{"MPI_COMM_TYPE_SHARED", 0, 1},
                                       {"MPI_UNDEFINED", -32766, -32766}};
const std::vector<Named> kWhence = {
    {"MPI_SEEK_SET", 600, 600}, {"MPI_SEEK_CUR", 602, 602}, {"MPI_SEEK_END", 604, 604}};
const std::vector<Named> kThread = {{"MPI_THREAD_SINGLE", 0, 0},
                                    {"MPI_THREAD_FUNNELED", 1, 1},
                                    {"MPI_THREAD_SERIALIZED", 2, 2},
                                    {"MPI_THREAD_MULTIPLE", 3, 3}};
const std::vector<Named> kDistrib = {{"MPI_DISTRIBUTE_BLOCK", 0, 121},
                                     {"MPI_DISTRIBUTE_CYCLIC", 1, 122},
                                     {"MPI_DISTRIBUTE_NONE", 2, 123}};
const std::vector<Named> kDarg = {{"MPI_DISTRIBUTE_DFLT_DARG", -1, -49767}};
const std::vector<Named> kTypeclass = {{"MPI_TYPECLASS_REAL", 2, 1},
                                       {"MPI_TYPECLASS_INTEGER", 1, 2},
                                       {"MPI_TYPECLASS_COMPLEX", 3, 3}};

int64_t value_in(const Named &n, bool mpich) { return mpich ? n.mpich : n.openmpi; }

std::string one_of(const std::vector<Named> &table, bool mpich, int64_t v) {
  for (const Named &n : table)
    if (value_in(n, mpich) == v)
      return n.name;
  return "";
}

std::string flags_of(const std::vector<Named> &table, bool mpich, int64_t v) {
  if (v == 0)
    return "0";
  std::string s;
  int64_t left = v;
  for (const Named &n : table)
    if ((left & value_in(n, mpich)) == value_in(n, mpich)) {
      s += (s.empty() ? "" : " | ") + std::string(n.name);
      left &= ~value_in(n, mpich);
    }
  return left == 0 ? s : "";
}

} // namespace

std::string named_constant(const std::string &library, const std::string &function,
                           const std::string &param, int64_t value) {
  const bool mpich = library.find("MPICH") != std::string::npos;
  if (!mpich && library.find("Open MPI") == std::string::npos)
    return ""; // values of an unknown library are kept as numbers
  if (param == "order")
    return one_of(kOrder, mpich, value);
  if (param == "assert" && function.rfind("MPI_Win_", 0) == 0)
    return flags_of(kWinAssert, mpich, value);
  if (param == "amode" && function.rfind("MPI_File_", 0) == 0)
    return flags_of(kFileMode, mpich, value);
  if (param == "lock_type")
    return one_of(kLockType, mpich, value);
  if (param == "split_type")
    return one_of(kSplitType, mpich, value);
  if (param == "whence")
    return one_of(kWhence, mpich, value);
  if (param == "required" && function == "MPI_Init_thread")
    return one_of(kThread, mpich, value);
  if (param == "array_of_distribs")
    return one_of(kDistrib, mpich, value);
  if (param == "array_of_dargs")
    return one_of(kDarg, mpich, value);
  if (param == "typeclass")
    return one_of(kTypeclass, mpich, value);
  return "";
}

} // namespace pilgrim::proxygen
