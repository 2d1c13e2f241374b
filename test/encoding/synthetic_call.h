// A synthetic call of one MPI function: arguments of every role, direction
// and length, made from the function's row of the generated function table
// and one Case, as real C values of the types mpi.h declares.
//
// The generated driver (encoding_driver.cpp, from pilgrim-gen-wrappers) asks
// for each argument with arg<T>(i), runs the wrapper's encoding statements
// (the prologue), lets play() stand for the MPI call (out and inout
// arguments get their "after" values), runs the epilogue and records the
// call. The model (call_model.h) says what each argument was meant to be.
#pragma once

#include "call_model.h"
#include "common/handle_key.h"
#include "handle_pool.h"

#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

namespace pilgrim::enctest {

// The C type of parameter I of the function type F (decltype(MPI_Send)).
template <class F> struct FunctionArgs;
template <class R, class... A> struct FunctionArgs<R(A...)> { using type = std::tuple<A...>; };
template <class R, class... A> struct FunctionArgs<R(A..., ...)> { using type = std::tuple<A...>; };
template <class F, size_t I>
using ParamType = std::tuple_element_t<I, typename FunctionArgs<F>::type>;

class SyntheticCall;

// One generated driver per wrapped function (encoding_driver.cpp).
struct Driver {
  uint16_t id;
  void (*drive)(SyntheticCall &);
};
extern const Driver kEncodingDrivers[];
extern const size_t kEncodingDriverCount;

class SyntheticCall {
public:
  SyntheticCall(HandlePool &pool, const FunctionInfo &f, Case c);

  // Argument i, of the type mpi.h gives it.
  template <class T> T arg(int i);
  // Stands for the MPI call: every out and inout argument takes its after value.
  void play();
  // The return code the "MPI call" returns, as the function's return type.
  template <class R> R return_code() const {
    if constexpr (std::is_pointer_v<R>) // a handle (MPI_Comm_f2c in Open MPI)
      return reinterpret_cast<R>(static_cast<intptr_t>(model_.return_code));
    else
      return static_cast<R>(model_.return_code);
  }
  const CallModel &model() const { return model_; }

  // [[noreturn]] on a type the role cannot have (a test bug, never the runtime's).
  [[noreturn]] void bad_type(int i, const char *what) const;

private:
  // How argument i is passed, beside what it means.
  struct Passing {
    bool null_pointer = false;  // the pointer itself is NULL
    bool status_ignore = false; // MPI_STATUS_IGNORE / MPI_STATUSES_IGNORE
    size_t capacity = 1;        // elements allocated (lengths before and after, and slack)
    int64_t intended = 0;       // a null-terminated array's length
  };

  const ParamInfo &info(int i) const { return f_.params[i]; }
  const Element &before(int i) const {
    return model_.params[static_cast<size_t>(i)].before.elements.at(0);
  }
  bool has_out(int i) const;

  void build();
  void build_scalar(int i);
  bool build_array(int i); // false while a length it needs is not built yet
  Element element(int i, int64_t k, int phase);
  Element handle_element(int i, int64_t k, int phase);
  int64_t driver_length(int phase) const;
  void resolve_bases();
  void mark_absent();

  static uint64_t address(const Element &e);
  template <class E> E to_c(int i, const Element &e) const;
  template <class E> E *alloc(size_t n) {
    E *p = new E[n]();
    blocks_.emplace_back(static_cast<void *>(p), [](void *q) { delete[] static_cast<E *>(q); });
    return p;
  }
  template <class E> E *elements_arg(int i);
  template <class T> T pointer_arg(int i);
  template <class T> T scalar_arg(int i);
  template <class T> T callback_arg(int i);
  char *string_storage(const Element &e, size_t capacity);
  char **string_array_storage(const Element &e);
  void set_status(MPI_Status &st, const Element &e) const;

  HandlePool &pool_;
  const FunctionInfo &f_;
  Case case_;
  CallModel model_;
  std::vector<Passing> passing_;
  std::vector<bool> built_, driver_, driver_array_, root_;
  std::vector<CommShape> shape_;
  std::vector<int> same_kind_; // ordinal of a handle among the call's handles of its kind
  std::vector<std::shared_ptr<void>> blocks_;
  std::deque<std::string> texts_;
  std::vector<std::function<void()>> writebacks_;
};

// --- argument materialization -------------------------------------------------

template <class E> E SyntheticCall::to_c(int i, const Element &e) const {
  const Role role = info(i).role;
  if (role == Role::Handle) {
    if constexpr (std::is_pointer_v<E> || std::is_integral_v<E>)
      return rt::handle_from_key<E>(e.key);
  } else if constexpr (std::is_floating_point_v<E>) {
    return static_cast<E>(role == Role::Double ? e.real : static_cast<double>(e.integer));
  } else if constexpr (std::is_integral_v<E>) {
    if (role == Role::Address && e.sym == Sym::User) // an anchor plus an offset
      return static_cast<E>(static_cast<int64_t>(e.key) + e.integer);
    return static_cast<E>(role == Role::Pointer ? static_cast<int64_t>(address(e)) : e.integer);
  }
  bad_type(i, "element");
}

// An array (or a pointer to one value) of elements.
template <class E> E *SyntheticCall::elements_arg(int i) {
  const Passing &p = passing_[static_cast<size_t>(i)];
  if (p.null_pointer)
    return nullptr;
  E *a = alloc<E>(p.capacity);
  const ParamModel &m = model_.params[static_cast<size_t>(i)];
  const size_t per = (info(i).flags & kFlagMatrix3) ? 3 : 1;
  auto fill = [this, i, a, per, cap = p.capacity](const Value &v) {
    for (size_t k = 0; k < v.elements.size() && k / per < cap; ++k) {
      if constexpr (std::is_array_v<E>)
        a[k / per][k % per] = to_c<std::remove_extent_t<E>>(i, v.elements[k]);
      else
        a[k] = to_c<E>(i, v.elements[k]);
    }
  };
  fill(m.before);
  if (has_out(i))
    writebacks_.push_back([fill, this, i] { fill(model_.params[static_cast<size_t>(i)].after); });
  return a;
}

template <class T> T SyntheticCall::scalar_arg(int i) {
  const Element &e = before(i);
  const Role role = info(i).role;
  if (role == Role::Handle) {
    if constexpr (std::is_pointer_v<T> || std::is_integral_v<T>)
      return rt::handle_from_key<T>(e.key);
  } else if (role == Role::Opaque) { // kept only as "not NULL": MPI_Info_create_env's argc
    if constexpr (std::is_enum_v<T> || std::is_arithmetic_v<T>)
      return T{};
  } else if constexpr (std::is_arithmetic_v<T>) {
    return to_c<T>(i, e);
  }
  bad_type(i, "value");
}

template <class T> T SyntheticCall::callback_arg(int i) {
  Element &e = model_.params[static_cast<size_t>(i)].before.elements.at(0);
  if (case_ == Case::Empty) {
    // The predefined callback of the parameter's callback type, where the MPI
    // has one. Chosen by the type's name in mpi.h, not by the C++ type: in
    // MPICH the copy functions of communicators, datatypes and windows are one
    // C++ type, and MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN, MPI_WIN_DUP_FN one function.
    const std::string type = info(i).c_type ? info(i).c_type : "";
    auto is = [&type](const char *name) { return type.rfind(name, 0) == 0; };
    const void *fn = nullptr;
    const char *name = nullptr;
    if (is("MPI_Comm_copy_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_COMM_DUP_FN);
      name = "MPI_COMM_DUP_FN";
    } else if (is("MPI_Comm_delete_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_COMM_NULL_DELETE_FN);
      name = "MPI_COMM_NULL_DELETE_FN";
    } else if (is("MPI_Type_copy_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_TYPE_DUP_FN);
      name = "MPI_TYPE_DUP_FN";
    } else if (is("MPI_Type_delete_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_TYPE_NULL_DELETE_FN);
      name = "MPI_TYPE_NULL_DELETE_FN";
    } else if (is("MPI_Win_copy_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_WIN_DUP_FN);
      name = "MPI_WIN_DUP_FN";
    } else if (is("MPI_Win_delete_attr_function")) {
      fn = reinterpret_cast<const void *>(MPI_WIN_NULL_DELETE_FN);
      name = "MPI_WIN_NULL_DELETE_FN";
    }
    if (name) {
      e.key = reinterpret_cast<uintptr_t>(fn);
      e.sym = e.key ? Sym::Predefined : Sym::Null; // some MPIs define the NULL ones as 0
      e.name = name;
    }
  }
  if (e.sym == Sym::Null)
    return nullptr;
  return reinterpret_cast<T>(static_cast<uintptr_t>(e.key));
}

template <class T> T SyntheticCall::pointer_arg(int i) {
  using E = std::remove_cv_t<std::remove_pointer_t<T>>;
  const ParamInfo &p = info(i);
  const Passing &pass = passing_[static_cast<size_t>(i)];
  switch (p.role) {
  case Role::Buffer:
    return reinterpret_cast<T>(static_cast<uintptr_t>(address(before(i))));
  case Role::Opaque:
    return before(i).integer ? reinterpret_cast<T>(pool_.opaque_address()) : nullptr;
  case Role::Pointer:
    if (p.dir == Direction::In)
      return reinterpret_cast<T>(static_cast<uintptr_t>(address(before(i))));
    if (pass.null_pointer)
      return nullptr;
    if constexpr (std::is_void_v<E>) { // void *: where MPI stores a void *
      void **slot = alloc<void *>(1);
      *slot = reinterpret_cast<void *>(static_cast<uintptr_t>(address(before(i))));
      writebacks_.push_back([this, slot, i] {
        *slot = reinterpret_cast<void *>(static_cast<uintptr_t>(
            address(model_.params[static_cast<size_t>(i)].after.elements.at(0))));
      });
      return slot;
    } else if constexpr (std::is_integral_v<E>) { // MPI_Aint *
      return elements_arg<E>(i);
    }
    break;
  case Role::String:
    if constexpr (std::is_same_v<E, char>) {
      if (pass.null_pointer)
        return nullptr;
      char *s = string_storage(before(i), 256);
      if (has_out(i))
        writebacks_.push_back([this, s, i] {
          const Element &after = model_.params[static_cast<size_t>(i)].after.elements.at(0);
          std::memcpy(s, after.text.data(), after.text.size());
          s[after.text.size()] = '\0';
        });
      return s;
    }
    break;
  case Role::StringArray:
    if constexpr (std::is_same_v<E, char *>) {
      if (pass.null_pointer)
        return nullptr;
      return string_array_storage(before(i));
    }
    break;
  case Role::ArgvArray:
    if constexpr (std::is_same_v<E, char **>) {
      if (pass.null_pointer)
        return nullptr;
      const Element &e = before(i);
      char ***a = alloc<char **>(e.items.size() + 1);
      for (size_t k = 0; k < e.items.size(); ++k)
        a[k] = e.items[k].present ? string_array_storage(e.items[k]) : nullptr;
      return a;
    }
    break;
  case Role::Status:
    if constexpr (std::is_same_v<E, MPI_Status>) {
      if (pass.null_pointer)
        return nullptr;
      if (pass.status_ignore)
        return (p.flags & kFlagArray) ? MPI_STATUSES_IGNORE : MPI_STATUS_IGNORE;
      MPI_Status *st = alloc<MPI_Status>(pass.capacity);
      auto fill = [this, st, cap = pass.capacity](const Value &v) {
        for (size_t k = 0; k < v.elements.size() && k < cap; ++k)
          set_status(st[k], v.elements[k]);
      };
      fill(model_.params[static_cast<size_t>(i)].before);
      if (has_out(i))
        writebacks_.push_back(
            [fill, this, i] { fill(model_.params[static_cast<size_t>(i)].after); });
      return st;
    }
    break;
  default:
    if constexpr (std::is_array_v<E> || std::is_arithmetic_v<E> || std::is_pointer_v<E>)
      return elements_arg<E>(i);
    break;
  }
  bad_type(i, "pointer");
}

template <class T> T SyntheticCall::arg(int i) {
  if constexpr (std::is_pointer_v<T> && std::is_function_v<std::remove_pointer_t<T>>) {
    return callback_arg<T>(i);
  } else if constexpr (std::is_pointer_v<T>) {
    if (info(i).flags & kFlagPointer)
      return pointer_arg<T>(i);
    return scalar_arg<T>(i); // a handle that is a pointer type (Open MPI)
  } else {
    return scalar_arg<T>(i);
  }
}

} // namespace pilgrim::enctest
