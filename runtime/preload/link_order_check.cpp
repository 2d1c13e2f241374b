// libpilgrim.so sees an MPI call only if the dynamic linker binds the name
// MPI_* to libpilgrim's wrapper, which then calls PMPI_*. Symbols are looked
// up in load order (the executable, LD_PRELOAD, then the libraries in the
// order they were linked), the same lookup for the application and for every
// library it uses (parallel HDF5 calls MPI_File_open by that name): so when
// the MPI library comes first (`-lmpi -lpilgrim`, or libpilgrim opened with
// dlopen), no call at all reaches the wrappers, MPI_Init's included, and no
// trace is written. That is said here, once per process, when libpilgrim is
// loaded: nothing else of Pilgrim would ever run. Part of libpilgrim.so only:
// a program linking the runtime's objects (test/encoding) has its own
// wrappers in the executable.
#include <dlfcn.h>

#include <cstdio>

namespace {

__attribute__((constructor)) void warn_if_mpi_comes_first() {
  Dl_info self{}, found{};
  void *init = dlsym(RTLD_DEFAULT, "MPI_Init");
  if (!init || !dladdr(reinterpret_cast<void *>(&warn_if_mpi_comes_first), &self) ||
      !dladdr(init, &found) || found.dli_fbase == self.dli_fbase)
    return;
  std::fprintf(stderr,
               "pilgrim: MPI_Init is %s's, loaded before %s: no MPI call will be traced "
               "(link -lpilgrim before the MPI library, or use LD_PRELOAD)\n",
               found.dli_fname ? found.dli_fname : "another object",
               self.dli_fname ? self.dli_fname : "libpilgrim.so");
}

} // namespace
