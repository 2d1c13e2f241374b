// POSIX I/O beside MPI (PILGRIM_POSIX=on; README "POSIX I/O"): libpilgrim.so
// defines open, openat, close, read, write, pread, pwrite, lseek, fsync,
// their 64-bit forms, and fopen, fread, fwrite, fclose; each forwards to the
// next definition (the C library's, found with dlsym(RTLD_NEXT)) and, when
// the call is the application's, records it as a posix record
// (pilgrim/posix_records.h, docs/FORMAT.md §8.6).
//
// Whose call it is:
//  * before MPI_Init and after the trace is written (MPI_Finalize), nothing
//    is recorded (the recorder is not Recording);
//  * calls the MPI library makes inside an MPI call (ROMIO's and OMPIO's
//    writes, a PMIx socket) run at nesting depth > 0 (call_inline.h) and
//    pass through;
//  * the MPI library's own helper threads (Open MPI's progress and PMIx
//    threads, MPICH's async progress thread) never call an MPI function
//    through the tracer's wrappers, so they have no ThreadState: a thread
//    is the application's once it has called MPI through the tracer (the
//    thread of MPI_Init, and any other that made an MPI call). So is the
//    tracer's own timing thread. A thread of the application that does
//    I/O but never calls MPI is not recorded either (documented in the
//    README).
// The test of all that is one TLS load and two loads of the recorder: no
// allocation, lock or system call beyond the application's own.
//
// dlsym may allocate, and an allocator or a library constructor may do I/O
// before dlsym returns: while this thread resolves a function, the
// descriptor functions go straight to the kernel (syscall) and the stdio
// ones fail with ENOSYS, without recursing.
#include "call_inline.h"
#include "file_name_coder.h"
#include "pilgrim/posix_records.h"

#include <atomic>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

namespace pilgrim::rt {
namespace {

__thread bool tls_resolving = false;

template <class F> F resolve(std::atomic<F> &slot, const char *name) {
  F f = slot.load(std::memory_order_acquire);
  if (__builtin_expect(f != nullptr, 1) || tls_resolving)
    return f;
  tls_resolving = true;
  f = reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
  tls_resolving = false;
  slot.store(f, std::memory_order_release);
  return f;
}

// Whether a POSIX call on this thread, now, is the application's and is
// recorded (the header comment).
inline bool recorded() {
  const ThreadState *ts = tls_thread_state;
  if (ts == nullptr || ts->depth != 0)
    return false;
  const Recorder &r = Recorder::active(); // exists: the thread made a traced call
  return r.settings.posix && r.state.load(std::memory_order_acquire) == State::Recording;
}

// A file name (or fopen's mode) in its coded form (file_name_coder.h,
// docs/FORMAT.md §8.6.1): the coder's state is this thread's, as the
// decoder's is the record's thread's.
thread_local FileNameCoder tls_names;
thread_local std::string tls_coded;
int world_rank() {
  static std::atomic<int> rank{-1};
  int r = rank.load(std::memory_order_relaxed);
  if (r < 0) {
    PMPI_Comm_rank(MPI_COMM_WORLD, &r);
    rank.store(r, std::memory_order_relaxed);
  }
  return r;
}
void coded_name(Call &c, const char *s) {
  if (!s) {
    c.string(nullptr);
    return;
  }
  tls_coded.clear();
  tls_names.code(s, world_rank(), tls_coded);
  c.string(tls_coded.c_str());
}

// errno as the C library left it, whatever recording does.
struct KeepErrno {
  int saved = 0;
  void keep() { saved = errno; }
  ~KeepErrno() { errno = saved; }
};

bool takes_mode(int flags) {
#ifdef O_TMPFILE
  if ((flags & O_TMPFILE) == O_TMPFILE)
    return true;
#endif
  return (flags & O_CREAT) != 0;
}

// open, open64, openat, openat64: `dirfd` only when `at`.
template <class Real>
int traced_open(uint16_t id, bool at, int dirfd, const char *path, int flags, int mode, Real real) {
  Call c(id);
  if (!c.active())
    return real();
  KeepErrno e;
  if (at)
    c.handle(HandleKind::Fd, dirfd);
  coded_name(c, path);
  c.value(flags);
  c.value(takes_mode(flags) ? mode : 0);
  c.start();
  const int fd = real();
  e.keep();
  c.stop();
  c.handles_create(HandleKind::Fd, &fd, 1);
  c.finish(fd >= 0 ? 0 : -1);
  return fd;
}

// read, write (offset < 0: none), pread, pwrite and their 64-bit forms.
template <class Real>
ssize_t traced_rw(uint16_t id, int fd, size_t count, bool has_offset, int64_t offset, Real real) {
  Call c(id);
  if (!c.active())
    return real();
  KeepErrno e;
  c.handle(HandleKind::Fd, fd);
  c.value(static_cast<int64_t>(count));
  if (has_offset)
    c.value(offset);
  c.start();
  const ssize_t r = real();
  e.keep();
  c.stop();
  c.finish(r);
  return r;
}

template <class Real>
int64_t traced_lseek(uint16_t id, int fd, int64_t offset, int whence, Real real) {
  Call c(id);
  if (!c.active())
    return real();
  KeepErrno e;
  c.handle(HandleKind::Fd, fd);
  c.value(offset);
  c.value(whence);
  c.start();
  const int64_t r = real();
  e.keep();
  c.stop();
  c.finish(r);
  return r;
}

template <class Real>
FILE *traced_fopen(uint16_t id, const char *path, const char *mode, Real real) {
  Call c(id);
  if (!c.active())
    return real();
  KeepErrno e;
  coded_name(c, path);
  coded_name(c, mode);
  c.start();
  FILE *f = real();
  e.keep();
  c.stop();
  c.handles_create(HandleKind::Stream, &f, 1);
  c.finish(f ? 0 : -1);
  return f;
}

template <class Real>
size_t traced_stdio_rw(uint16_t id, size_t size, size_t nmemb, FILE *stream, Real real) {
  Call c(id);
  if (!c.active())
    return real();
  KeepErrno e;
  c.value(static_cast<int64_t>(size));
  c.value(static_cast<int64_t>(nmemb));
  c.handles(HandleKind::Stream, &stream, 1); // a pointer (FILE *): an array of one, FORMAT §8.1
  c.start();
  const size_t r = real();
  e.keep();
  c.stop();
  c.finish(static_cast<int64_t>(r));
  return r;
}

using OpenFn = int (*)(const char *, int, ...);
using OpenatFn = int (*)(int, const char *, int, ...);
using CloseFn = int (*)(int);
using ReadFn = ssize_t (*)(int, void *, size_t);
using WriteFn = ssize_t (*)(int, const void *, size_t);
using PreadFn = ssize_t (*)(int, void *, size_t, off_t);
using PwriteFn = ssize_t (*)(int, const void *, size_t, off_t);
using Pread64Fn = ssize_t (*)(int, void *, size_t, off64_t);
using Pwrite64Fn = ssize_t (*)(int, const void *, size_t, off64_t);
using LseekFn = off_t (*)(int, off_t, int);
using Lseek64Fn = off64_t (*)(int, off64_t, int);
using FsyncFn = int (*)(int);
using FopenFn = FILE *(*)(const char *, const char *);
using FreadFn = size_t (*)(void *, size_t, size_t, FILE *);
using FwriteFn = size_t (*)(const void *, size_t, size_t, FILE *);
using FcloseFn = int (*)(FILE *);

std::atomic<OpenFn> real_open{nullptr}, real_open64{nullptr};
std::atomic<OpenatFn> real_openat{nullptr}, real_openat64{nullptr};
std::atomic<CloseFn> real_close{nullptr};
std::atomic<ReadFn> real_read{nullptr};
std::atomic<WriteFn> real_write{nullptr};
std::atomic<PreadFn> real_pread{nullptr};
std::atomic<PwriteFn> real_pwrite{nullptr};
std::atomic<Pread64Fn> real_pread64{nullptr};
std::atomic<Pwrite64Fn> real_pwrite64{nullptr};
std::atomic<LseekFn> real_lseek{nullptr};
std::atomic<Lseek64Fn> real_lseek64{nullptr};
std::atomic<FsyncFn> real_fsync{nullptr};
std::atomic<FopenFn> real_fopen{nullptr}, real_fopen64{nullptr};
std::atomic<FreadFn> real_fread{nullptr};
std::atomic<FwriteFn> real_fwrite{nullptr};
std::atomic<FcloseFn> real_fclose{nullptr};

int mode_arg(int flags, va_list ap) { return takes_mode(flags) ? va_arg(ap, int) : 0; }

int do_open(std::atomic<OpenFn> &slot, const char *name, uint16_t id, const char *path, int flags,
            int mode) {
  const OpenFn f = resolve(slot, name);
  auto real = [&] {
    return f ? f(path, flags, mode)
             : static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, flags, mode));
  };
  return recorded() ? traced_open(id, false, -1, path, flags, mode, real) : real();
}

int do_openat(std::atomic<OpenatFn> &slot, const char *name, uint16_t id, int dirfd,
              const char *path, int flags, int mode) {
  const OpenatFn f = resolve(slot, name);
  auto real = [&] {
    return f ? f(dirfd, path, flags, mode)
             : static_cast<int>(syscall(SYS_openat, dirfd, path, flags, mode));
  };
  return recorded() ? traced_open(id, true, dirfd, path, flags, mode, real) : real();
}

FILE *do_fopen(std::atomic<FopenFn> &slot, const char *name, uint16_t id, const char *path,
               const char *mode) {
  const FopenFn f = resolve(slot, name);
  auto real = [&]() -> FILE * {
    if (f)
      return f(path, mode);
    errno = ENOSYS;
    return nullptr;
  };
  return recorded() ? traced_fopen(id, path, mode, real) : real();
}

} // namespace
} // namespace pilgrim::rt

using namespace pilgrim;
using namespace pilgrim::rt;

extern "C" {

PILGRIM_EXPORT int open(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return do_open(real_open, "open", kPosixOpen, path, flags, mode);
}

PILGRIM_EXPORT int open64(const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return do_open(real_open64, "open64", kPosixOpen64, path, flags, mode);
}

PILGRIM_EXPORT int openat(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(real_openat, "openat", kPosixOpenat, dirfd, path, flags, mode);
}

PILGRIM_EXPORT int openat64(int dirfd, const char *path, int flags, ...) {
  va_list ap;
  va_start(ap, flags);
  const int mode = mode_arg(flags, ap);
  va_end(ap);
  return do_openat(real_openat64, "openat64", kPosixOpenat64, dirfd, path, flags, mode);
}

PILGRIM_EXPORT int close(int fd) {
  const CloseFn f = resolve(real_close, "close");
  auto real = [&] { return f ? f(fd) : static_cast<int>(syscall(SYS_close, fd)); };
  if (!recorded())
    return real();
  Call c(kPosixClose);
  if (!c.active())
    return real();
  KeepErrno e;
  c.handles(HandleKind::Fd, &fd, 1);
  c.start();
  const int r = real();
  e.keep();
  c.stop();
  const int after = r == 0 ? -1 : fd; // like an MPI handle a call frees
  c.handle_free(HandleKind::Fd, &after, fd);
  c.finish(r);
  return r;
}

PILGRIM_EXPORT ssize_t read(int fd, void *buf, size_t count) {
  const ReadFn f = resolve(real_read, "read");
  auto real = [&] { return f ? f(fd, buf, count) : syscall(SYS_read, fd, buf, count); };
  return recorded() ? traced_rw(kPosixRead, fd, count, false, 0, real) : real();
}

PILGRIM_EXPORT ssize_t write(int fd, const void *buf, size_t count) {
  const WriteFn f = resolve(real_write, "write");
  auto real = [&] { return f ? f(fd, buf, count) : syscall(SYS_write, fd, buf, count); };
  return recorded() ? traced_rw(kPosixWrite, fd, count, false, 0, real) : real();
}

PILGRIM_EXPORT ssize_t pread(int fd, void *buf, size_t count, off_t offset) {
  const PreadFn f = resolve(real_pread, "pread");
  auto real = [&] {
    return f ? f(fd, buf, count, offset) : syscall(SYS_pread64, fd, buf, count, offset);
  };
  return recorded() ? traced_rw(kPosixPread, fd, count, true, offset, real) : real();
}

PILGRIM_EXPORT ssize_t pread64(int fd, void *buf, size_t count, off64_t offset) {
  const Pread64Fn f = resolve(real_pread64, "pread64");
  auto real = [&] {
    return f ? f(fd, buf, count, offset) : syscall(SYS_pread64, fd, buf, count, offset);
  };
  return recorded() ? traced_rw(kPosixPread64, fd, count, true, offset, real) : real();
}

PILGRIM_EXPORT ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
  const PwriteFn f = resolve(real_pwrite, "pwrite");
  auto real = [&] {
    return f ? f(fd, buf, count, offset) : syscall(SYS_pwrite64, fd, buf, count, offset);
  };
  return recorded() ? traced_rw(kPosixPwrite, fd, count, true, offset, real) : real();
}

PILGRIM_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t count, off64_t offset) {
  const Pwrite64Fn f = resolve(real_pwrite64, "pwrite64");
  auto real = [&] {
    return f ? f(fd, buf, count, offset) : syscall(SYS_pwrite64, fd, buf, count, offset);
  };
  return recorded() ? traced_rw(kPosixPwrite64, fd, count, true, offset, real) : real();
}

PILGRIM_EXPORT off_t lseek(int fd, off_t offset, int whence) {
  const LseekFn f = resolve(real_lseek, "lseek");
  auto real = [&]() -> int64_t {
    return f ? f(fd, offset, whence) : syscall(SYS_lseek, fd, offset, whence);
  };
  return recorded() ? traced_lseek(kPosixLseek, fd, offset, whence, real) : real();
}

PILGRIM_EXPORT off64_t lseek64(int fd, off64_t offset, int whence) {
  const Lseek64Fn f = resolve(real_lseek64, "lseek64");
  auto real = [&]() -> int64_t {
    return f ? f(fd, offset, whence) : syscall(SYS_lseek, fd, offset, whence);
  };
  return recorded() ? traced_lseek(kPosixLseek64, fd, offset, whence, real) : real();
}

PILGRIM_EXPORT int fsync(int fd) {
  const FsyncFn f = resolve(real_fsync, "fsync");
  auto real = [&] { return f ? f(fd) : static_cast<int>(syscall(SYS_fsync, fd)); };
  if (!recorded())
    return real();
  Call c(kPosixFsync);
  if (!c.active())
    return real();
  KeepErrno e;
  c.handle(HandleKind::Fd, fd);
  c.start();
  const int r = real();
  e.keep();
  c.stop();
  c.finish(r);
  return r;
}

PILGRIM_EXPORT FILE *fopen(const char *path, const char *mode) {
  return do_fopen(real_fopen, "fopen", kPosixFopen, path, mode);
}

PILGRIM_EXPORT FILE *fopen64(const char *path, const char *mode) {
  return do_fopen(real_fopen64, "fopen64", kPosixFopen64, path, mode);
}

PILGRIM_EXPORT size_t fread(void *ptr, size_t size, size_t nmemb, FILE *stream) {
  const FreadFn f = resolve(real_fread, "fread");
  auto real = [&]() -> size_t { return f ? f(ptr, size, nmemb, stream) : 0; };
  return recorded() ? traced_stdio_rw(kPosixFread, size, nmemb, stream, real) : real();
}

PILGRIM_EXPORT size_t fwrite(const void *ptr, size_t size, size_t nmemb, FILE *stream) {
  const FwriteFn f = resolve(real_fwrite, "fwrite");
  auto real = [&]() -> size_t { return f ? f(ptr, size, nmemb, stream) : 0; };
  return recorded() ? traced_stdio_rw(kPosixFwrite, size, nmemb, stream, real) : real();
}

PILGRIM_EXPORT int fclose(FILE *stream) {
  const FcloseFn f = resolve(real_fclose, "fclose");
  auto real = [&] { return f ? f(stream) : EOF; };
  if (!recorded())
    return real();
  Call c(kPosixFclose);
  if (!c.active())
    return real();
  KeepErrno e;
  c.handles(HandleKind::Stream, &stream, 1);
  c.start();
  const int r = real();
  e.keep();
  c.stop();
  FILE *const after = r == 0 ? nullptr : stream;
  c.handle_free(HandleKind::Stream, &after, stream);
  c.finish(r);
  return r;
}

} // extern "C"
