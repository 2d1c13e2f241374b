// What the generated Fortran entry points (build/X/generated/fortran_entries.cpp,
// generator/fortran_emitter.cpp) need beside the C API: the addresses of the
// Fortran sentinels, Fortran strings made C strings and back, and arrays of
// converted handles and statuses held on the stack up to a small count.
//
// An entry point converts the Fortran arguments to C, runs the C wrapper's
// body (pilgrim_site_<name>: records the call as a C program's and calls
// PMPI), converts the outputs back and sets ierr: in both MPIs, in place of the
// MPI's own binding. Where a function has no conversion rule and the MPI's
// binding calls the C MPI_* (MPICH's libmpifort), an entry point only sets
// the site (pass_site) and calls the binding. See README, "Fortran".
#pragma once

#include <mpi.h>

#include "call_inline.h"

#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

// Each Fortran library exposes its sentinels as the address of a global the
// application's MPI_IN_PLACE etc. are bound to. Open MPI: the globals
// mpi_fortran_*_ of libmpi. MPICH: the pointers MPIR_F_MPI_* of libmpifort,
// which its Fortran start-up sets to the addresses of its common blocks. The
// standard's MPI_F_STATUS(ES)_IGNORE (mpi.h) name the status sentinels in both.
// They are weak references, resolved at load time against the application's
// MPI library: one that lacks a name leaves it null, and the comparisons
// below are then never true.
extern "C" {
extern char mpi_fortran_in_place_ __attribute__((weak));
extern char mpi_fortran_bottom_ __attribute__((weak));
extern char mpi_fortran_errcodes_ignore_ __attribute__((weak));
extern char mpi_fortran_unweighted_ __attribute__((weak));
extern char mpi_fortran_weights_empty_ __attribute__((weak));
extern char mpi_fortran_argv_null_ __attribute__((weak));
extern char mpi_fortran_argvs_null_ __attribute__((weak));
extern void *MPIR_F_MPI_IN_PLACE __attribute__((weak));
extern void *MPIR_F_MPI_BOTTOM __attribute__((weak));
extern void *MPIR_F_MPI_UNWEIGHTED __attribute__((weak));
extern void *MPIR_F_MPI_WEIGHTS_EMPTY __attribute__((weak));
// MPICH's Fortran start-up: libmpifort's bindings run mpirinitf_ once, when
// MPIR_F_NeedInit says so; it hands libmpifort and libmpich the addresses of
// the Fortran sentinels (MPIR_F_MPI_*, MPI_F_STATUS(ES)_IGNORE).
extern int MPIR_F_NeedInit __attribute__((weak));
void mpirinitf_(void) __attribute__((weak));
}

namespace pilgrim::rt::fortran {

// The site key of the application's call, the entry point's return address
// (call_sites.h), for the next wrapper this thread reaches: the C function
// the MPI's Fortran binding calls (MPICH), or MPI_Pcontrol's marker. That
// wrapper's constructor takes it, so the entry point can end in a tail call
// of the binding. A binding that reached no wrapper at all would leave it to
// the thread's next call.
PILGRIM_HOT void pass_site(const void *site) {
  thread_state().set_site_override(reinterpret_cast<uintptr_t>(site));
}

// The entry points convert the arguments themselves, so where MPICH's
// bindings would have run its Fortran start-up, they do: in MPI_Init and
// MPI_Init_thread, and before the first comparison with a sentinel it sets
// (a Fortran caller after a C MPI_Init). Nothing under Open MPI.
inline void fortran_start() {
  if (&MPIR_F_NeedInit && MPIR_F_NeedInit && mpirinitf_) {
    mpirinitf_();
    MPIR_F_NeedInit = 0;
  }
}

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER must be a C int");

#ifdef MPI_F_STATUS_SIZE
constexpr int kStatusSize = MPI_F_STATUS_SIZE;
#else
constexpr int kStatusSize = static_cast<int>(sizeof(MPI_Status) / sizeof(MPI_Fint));
#endif

// A weak sentinel the MPI lacks has address null, which no argument has.
inline bool is(const void *p, const char *sentinel) { return p && p == sentinel; }
// MPICH's: a pointer variable, null until its Fortran start-up ran.
inline bool is(const void *p, void *const *sentinel) {
  if (!p || !sentinel)
    return false;
  if (__builtin_expect(*sentinel == nullptr, 0))
    fortran_start();
  return p == *sentinel;
}

// A choice buffer: MPI_IN_PLACE and MPI_BOTTOM become C's.
inline void *buffer(const void *p) {
  if (is(p, &mpi_fortran_in_place_) || is(p, &MPIR_F_MPI_IN_PLACE))
    return MPI_IN_PLACE;
  if (is(p, &mpi_fortran_bottom_) || is(p, &MPIR_F_MPI_BOTTOM))
    return MPI_BOTTOM;
  return const_cast<void *>(p);
}

// An INTEGER array: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY and MPI_ERRCODES_IGNORE
// become C's (no other array can lie at their addresses).
inline int *int_array(const MPI_Fint *p) {
  if (is(p, &mpi_fortran_unweighted_) || is(p, &MPIR_F_MPI_UNWEIGHTED))
    return MPI_UNWEIGHTED;
  if (is(p, &mpi_fortran_weights_empty_) || is(p, &MPIR_F_MPI_WEIGHTS_EMPTY))
    return MPI_WEIGHTS_EMPTY;
  if (is(p, &mpi_fortran_errcodes_ignore_))
    return MPI_ERRCODES_IGNORE;
  return const_cast<int *>(p);
}

// MPICH's MPI_F_STATUS(ES)_IGNORE are variables its Fortran start-up sets.
inline bool status_ignored(const MPI_Fint *p) {
  if (p && __builtin_expect(MPI_F_STATUS_IGNORE == nullptr, 0))
    fortran_start();
  return p && p == MPI_F_STATUS_IGNORE;
}
inline bool statuses_ignored(const MPI_Fint *p) {
  if (p && __builtin_expect(MPI_F_STATUSES_IGNORE == nullptr, 0))
    fortran_start();
  return p && p == MPI_F_STATUSES_IGNORE;
}

// T[n], on the stack up to N elements, on the heap beyond.
template <class T, size_t N> class Array {
public:
  explicit Array(size_t n) : data_(n <= N ? small_ : nullptr) {
    if (!data_) {
      heap_.reset(new T[n]);
      data_ = heap_.get();
    }
  }
  T *get() { return data_; }
  T &operator[](size_t i) { return data_[i]; }

private:
  T small_[N];
  std::unique_ptr<T[]> heap_;
  T *data_;
};

// A hidden CHARACTER length (an int: see fortran_emitter.cpp).
inline size_t hidden_length(int len) { return len > 0 ? static_cast<size_t>(len) : 0; }

// A CHARACTER argument of `len` characters as a C string: leading and
// trailing blanks dropped, as MPI's Fortran bindings do.
class InString {
public:
  InString(const char *f, int hidden_len) {
    const size_t len = hidden_length(hidden_len);
    if (!f) {
      c_ = nullptr;
      return;
    }
    size_t b = 0, e = len;
    while (b < e && f[b] == ' ')
      ++b;
    while (e > b && f[e - 1] == ' ')
      --e;
    size_t n = e - b;
    c_ = n < sizeof(small_) ? small_ : (heap_.reset(new char[n + 1]), heap_.get());
    std::memcpy(c_, f + b, n);
    c_[n] = '\0';
  }
  char *get() { return c_; }

private:
  char small_[256];
  std::unique_ptr<char[]> heap_;
  char *c_;
};

// A CHARACTER argument MPI writes: a C buffer at least as large as any
// MPI_MAX_* string (and as the Fortran variable), copied back blank-padded.
class OutString {
public:
  OutString(char *f, int hidden_len) : f_(f), len_(hidden_length(hidden_len)) {
    c_ = len_ < sizeof(small_) ? small_ : (heap_.reset(new char[len_ + 1]), heap_.get());
    c_[0] = '\0';
  }
  char *get() { return f_ ? c_ : nullptr; }
  void copy_back() {
    if (!f_)
      return;
    size_t n = strnlen(c_, len_);
    std::memcpy(f_, c_, n);
    std::memset(f_ + n, ' ', len_ - n);
  }

private:
  char small_[8192]; // MPICH's MPI_MAX_LIBRARY_VERSION_STRING
  std::unique_ptr<char[]> heap_;
  char *f_;
  size_t len_;
  char *c_;
};

// A CHARACTER*(len) array as C's array of strings, trimmed: `count` of
// them, or where count < 0 up to the first blank one and then a null pointer
// (an argv). MPI_ARGV_NULL (Open MPI's), or null (not significant here), is
// null. For recording only: the MPI's Fortran binding converts its own.
class StringArray {
public:
  StringArray(const char *f, int hidden_len, int64_t count) {
    if (!f || is(f, &mpi_fortran_argv_null_))
      return;
    strings_ = read(f, hidden_len, count, 1);
    for (auto &s : strings_)
      ptrs_.push_back(&s[0]);
    if (count < 0)
      ptrs_.push_back(nullptr);
  }
  char **get() { return strings_.empty() && ptrs_.empty() ? nullptr : ptrs_.data(); }

  // Up to `count` strings (count < 0: up to a blank one) of `len` characters,
  // `stride` strings apart.
  static std::vector<std::string> read(const char *f, int hidden_len, int64_t count,
                                       int64_t stride) {
    std::vector<std::string> out;
    const size_t len = hidden_length(hidden_len);
    for (int64_t k = 0; count < 0 || k < count; ++k) {
      InString s(f + static_cast<size_t>(k * stride) * len, hidden_len);
      if (count < 0 && !*s.get())
        break;
      out.emplace_back(s.get());
    }
    return out;
  }

private:
  std::vector<std::string> strings_;
  std::vector<char *> ptrs_;
};

// ARRAY_OF_ARGV(COUNT, *) as C's array of `count` argvs (argv i's
// arguments at (i, 1), (i, 2), ... up to a blank one). MPI_ARGVS_NULL or
// null: null.
class ArgvArrays {
public:
  ArgvArrays(const char *f, int hidden_len, int64_t count) {
    if (!f || is(f, &mpi_fortran_argvs_null_) || count <= 0)
      return;
    const size_t len = hidden_length(hidden_len);
    strings_.resize(static_cast<size_t>(count));
    argvs_.resize(static_cast<size_t>(count));
    for (int64_t i = 0; i < count; ++i) {
      strings_[i] = StringArray::read(f + static_cast<size_t>(i) * len, hidden_len, -1, count);
      for (auto &s : strings_[i])
        argvs_[i].push_back(&s[0]);
      argvs_[i].push_back(nullptr);
      ptrs_.push_back(argvs_[i].data());
    }
  }
  char ***get() { return ptrs_.empty() ? nullptr : ptrs_.data(); }

private:
  std::vector<std::vector<std::string>> strings_;
  std::vector<std::vector<char *>> argvs_;
  std::vector<char **> ptrs_;
};

// An index MPI returned 0-based, made 1-based (MPI_UNDEFINED stays).
inline void one_based(int *index, int64_t n) {
  for (int64_t k = 0; k < n; ++k)
    if (index[k] != MPI_UNDEFINED)
      ++index[k];
}

// An attribute value or extra state, an INTEGER(KIND=MPI_ADDRESS_KIND) (or
// an INTEGER, sign-extended, for the MPI-1 attribute functions) in Fortran:
// its value is the pointer a C program passes.
inline void *address_value(MPI_Aint v) { return reinterpret_cast<void *>(v); }

// A keyval the program names, as C's: MPICH's Fortran names a predefined
// attribute's keyval one above C's (mpif.h's MPI_TAG_UB is 0x64400002,
// mpi.h's 0x64400001), which its Fortran attribute bindings map back. Open
// MPI's are C's. A keyval the program created is the same in both.
inline int keyval_f2c(MPI_Fint k) {
#ifdef MPICH
  for (int c : {MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE,
                MPI_LASTUSEDCODE, MPI_APPNUM, MPI_WIN_BASE, MPI_WIN_SIZE, MPI_WIN_DISP_UNIT,
                MPI_WIN_CREATE_FLAVOR, MPI_WIN_MODEL})
    if (k == c + 1)
      return c;
#endif
  return k;
}

inline int64_t count_or_zero(int n) { return n == MPI_UNDEFINED || n < 0 ? 0 : n; }

} // namespace pilgrim::rt::fortran
