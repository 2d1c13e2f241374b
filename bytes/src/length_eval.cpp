#include "pilgrim/length_eval.h"

#include <string>
#include <vector>

#include "pilgrim/trace_error.h"

namespace pilgrim {

namespace {

[[noreturn]] void fail(size_t pc, const std::string &what) {
  throw TraceError("length program instruction " + std::to_string(pc) + ": " + what);
}

int64_t checked(bool overflow, int64_t v, size_t pc) {
  if (overflow)
    fail(pc, "arithmetic overflow");
  return v;
}

} // namespace

int64_t eval_length_program(const LenInstr *program, size_t size, const LengthAccessors &acc,
                            int nparams) {
  if (!program || size == 0)
    throw TraceError("empty length program");
  std::vector<int64_t> stack;
  stack.reserve(size);
  auto pop = [&](size_t pc) {
    if (stack.empty())
      fail(pc, "stack underflow");
    int64_t v = stack.back();
    stack.pop_back();
    return v;
  };
  auto param_index = [&](size_t pc, int32_t arg) {
    if (arg < 0 || arg >= nparams)
      fail(pc, "parameter index " + std::to_string(arg) + " out of range");
    return static_cast<int>(arg);
  };
  for (size_t pc = 0; pc < size; ++pc) {
    const LenInstr &in = program[pc];
    switch (in.op) {
    case LenOp::Const:
      stack.push_back(in.arg);
      break;
    case LenOp::Param: {
      int p = param_index(pc, in.arg);
      if (!acc.value)
        fail(pc, "no value accessor");
      stack.push_back(acc.value(p));
      break;
    }
    case LenOp::Elem: {
      int p = param_index(pc, in.arg);
      int64_t i = pop(pc);
      if (i < 0) { // `index[nnodes-1]` of a graph of no nodes: as the runtime reads it
        stack.push_back(0);
        break;
      }
      if (!acc.element)
        fail(pc, "no element accessor");
      const int64_t v = acc.element(p, i);
      stack.push_back(v < 0 ? 0 : v); // MPI_UNDEFINED and friends count as 0
      break;
    }
    case LenOp::Add:
    case LenOp::Sub:
    case LenOp::Mul: {
      int64_t b = pop(pc);
      int64_t a = pop(pc);
      int64_t r = 0;
      bool ovf = in.op == LenOp::Add   ? __builtin_add_overflow(a, b, &r)
                 : in.op == LenOp::Sub ? __builtin_sub_overflow(a, b, &r)
                                       : __builtin_mul_overflow(a, b, &r);
      stack.push_back(checked(ovf, r, pc));
      break;
    }
    case LenOp::Peers:
    case LenOp::CommSize:
    case LenOp::InDegree:
    case LenOp::OutDegree:
    case LenOp::GroupSize:
    case LenOp::CartDim: {
      int p = param_index(pc, in.arg);
      if (!acc.comm_fact)
        fail(pc, "no communicator accessor");
      stack.push_back(acc.comm_fact(in.op, p));
      break;
    }
    case LenOp::Sum: {
      int p = param_index(pc, in.arg);
      int64_t n = pop(pc);
      if (n < 0 || n > kMaxLengthSumTerms)
        fail(pc, "sum over " + std::to_string(n) + " elements");
      if (n > 0 && !acc.element)
        fail(pc, "no element accessor");
      int64_t total = 0;
      for (int64_t i = 0; i < n; ++i) {
        int64_t r;
        if (__builtin_add_overflow(total, acc.element(p, i), &r))
          fail(pc, "arithmetic overflow");
        total = r;
      }
      stack.push_back(total);
      break;
    }
    case LenOp::NullTerm: {
      int p = param_index(pc, in.arg);
      if (!acc.null_terminated_length)
        fail(pc, "no null-terminated length accessor");
      stack.push_back(acc.null_terminated_length(p));
      break;
    }
    default:
      fail(pc, "unknown op " + std::to_string(static_cast<int>(in.op)));
    }
  }
  if (stack.size() != 1)
    throw TraceError("length program leaves " + std::to_string(stack.size()) +
                     " values on the stack");
  if (stack.back() < 0)
    throw TraceError("length program gives negative length " + std::to_string(stack.back()));
  return stack.back();
}

int64_t eval_length(const FunctionInfo &fn, int index, const LengthAccessors &acc) {
  if (index < 0 || index >= fn.nparams || !fn.params)
    throw TraceError("parameter index " + std::to_string(index) + " out of range");
  return eval_length(fn.params[index], acc, fn.nparams);
}

} // namespace pilgrim
