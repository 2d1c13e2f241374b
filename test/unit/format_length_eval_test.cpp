// The RPN length evaluator.
#include <gtest/gtest.h>

#include <vector>

#include "../fuzz/sample_trace.h"
#include "pilgrim/length_eval.h"
#include "pilgrim/trace_error.h"

namespace pilgrim {
namespace {

int64_t run(std::vector<LenInstr> prog, const LengthAccessors &acc, int nparams = 8) {
  return eval_length_program(prog.data(), prog.size(), acc, nparams);
}

LengthAccessors simple() {
  LengthAccessors a;
  a.value = [](int p) -> int64_t { return 10 * (p + 1); }; // param i has value 10(i+1)
  a.element = [](int p, int64_t i) -> int64_t { return p * 100 + i; };
  a.comm_fact = [](LenOp op, int p) -> int64_t {
    switch (op) {
    case LenOp::Peers:
      return 4 + p;
    case LenOp::CommSize:
      return 3;
    case LenOp::InDegree:
      return 2;
    case LenOp::OutDegree:
      return 5;
    case LenOp::GroupSize:
      return 6;
    case LenOp::CartDim:
      return 2;
    default:
      return -1;
    }
  };
  a.null_terminated_length = [](int) -> int64_t { return 7; };
  return a;
}

TEST(FormatLengthEval, Operations) {
  const LengthAccessors a = simple();
  EXPECT_EQ(run({{LenOp::Const, 42}}, a), 42);
  EXPECT_EQ(run({{LenOp::Param, 1}}, a), 20);
  EXPECT_EQ(run({{LenOp::Param, 0}, {LenOp::Const, 3}, {LenOp::Mul, 0}}, a), 30); // n*3
  EXPECT_EQ(run({{LenOp::Param, 0}, {LenOp::Const, 1}, {LenOp::Sub, 0}, {LenOp::Elem, 2}}, a),
            209); // index[n-1]
  EXPECT_EQ(run({{LenOp::Const, 2}, {LenOp::Const, 5}, {LenOp::Add, 0}}, a), 7);
  EXPECT_EQ(run({{LenOp::Const, 9}, {LenOp::Const, 5}, {LenOp::Sub, 0}}, a), 4); // order: a - b
  EXPECT_EQ(run({{LenOp::Peers, 1}}, a), 5);
  EXPECT_EQ(run({{LenOp::CommSize, 0}}, a), 3);
  EXPECT_EQ(run({{LenOp::InDegree, 0}}, a), 2);
  EXPECT_EQ(run({{LenOp::OutDegree, 0}}, a), 5);
  EXPECT_EQ(run({{LenOp::GroupSize, 0}}, a), 6);
  EXPECT_EQ(run({{LenOp::CartDim, 0}}, a), 2);
  EXPECT_EQ(run({{LenOp::NullTerm, 0}}, a), 7);
  EXPECT_EQ(run({{LenOp::Const, 3}, {LenOp::Sum, 1}}, a), 100 + 101 + 102);
  EXPECT_EQ(run({{LenOp::Const, 0}, {LenOp::Sum, 1}}, a), 0);
}

// MPI_Graph_create with nnodes = 0: `index[nnodes-1]` reads no element, and
// the runtime (len_elem) counts it as 0, so a reader must too.
TEST(FormatLengthEval, NegativeElementIndexIsZero) {
  const LengthAccessors a = simple();
  EXPECT_EQ(run({{LenOp::Const, 0}, {LenOp::Const, 1}, {LenOp::Sub, 0}, {LenOp::Elem, 1}}, a), 0);
}

TEST(FormatLengthEval, MalformedPrograms) {
  const LengthAccessors a = simple();
  EXPECT_THROW(run({}, a), TraceError);
  EXPECT_THROW(run({{LenOp::Add, 0}}, a), TraceError);                      // underflow
  EXPECT_THROW(run({{LenOp::Const, 1}, {LenOp::Add, 0}}, a), TraceError);   // underflow
  EXPECT_THROW(run({{LenOp::Elem, 0}}, a), TraceError);                     // underflow
  EXPECT_THROW(run({{LenOp::Sum, 0}}, a), TraceError);                      // underflow
  EXPECT_THROW(run({{LenOp::Const, 1}, {LenOp::Const, 2}}, a), TraceError); // two results
  EXPECT_THROW(run({{LenOp::Param, 8}}, a), TraceError);                    // bad index
  EXPECT_THROW(run({{LenOp::Param, -1}}, a), TraceError);
  EXPECT_THROW(run({{LenOp::Peers, 99}}, a), TraceError);
  EXPECT_THROW(run({{static_cast<LenOp>(200), 0}}, a), TraceError);         // unknown op
  EXPECT_THROW(run({{LenOp::Const, -1}}, a), TraceError);                   // negative length
  EXPECT_THROW(run({{LenOp::Const, INT32_MAX},
                    {LenOp::Const, INT32_MAX},
                    {LenOp::Mul, 0},
                    {LenOp::Const, INT32_MAX},
                    {LenOp::Mul, 0},
                    {LenOp::Const, INT32_MAX},
                    {LenOp::Mul, 0}},
                   a),
               TraceError); // overflow
  EXPECT_THROW(
      run({{LenOp::Const, INT32_MAX}, {LenOp::Const, INT32_MAX}, {LenOp::Mul, 0}, {LenOp::Sum, 0}},
          a),
      TraceError);                                                       // too many sum terms
  EXPECT_THROW(run({{LenOp::Param, 0}}, LengthAccessors{}), TraceError); // no accessor
  try {
    run({{LenOp::Const, 1}, {LenOp::Mul, 0}}, a);
    FAIL();
  } catch (const TraceError &e) {
    EXPECT_STREQ(e.what(), "length program instruction 1: stack underflow");
  }
}

TEST(FormatLengthEval, SampleTablePrograms) {
  // MPI_Comm_spawn_multiple errcodes: sum(array_of_maxprocs, count).
  const FunctionInfo &sm = sample::function("MPI_Comm_spawn_multiple");
  LengthAccessors a;
  a.value = [](int p) -> int64_t { return p == 0 ? 3 : -1; };
  a.element = [](int p, int64_t i) -> int64_t { return p == 3 ? (i + 1) * 2 : -1; };
  EXPECT_EQ(eval_length(sm, 8, a), 2 + 4 + 6);
  EXPECT_THROW(eval_length(sm, 9, a), TraceError);
  // MPI_Gatherv recvcounts: peers(comm).
  LengthAccessors b;
  b.comm_fact = [](LenOp op, int p) -> int64_t { return op == LenOp::Peers && p == 8 ? 16 : -1; };
  EXPECT_EQ(eval_length(sample::function("MPI_Gatherv"), 4, b), 16);
  // A program referencing a parameter the function does not have.
  static const LenInstr bad[] = {{LenOp::Param, 5}};
  ParamInfo p = sample::function("MPI_Waitall").params[1];
  p.len = bad;
  p.len_size = 1;
  FunctionInfo f{99, "X", 3, nullptr};
  const ParamInfo params[] = {sample::function("MPI_Waitall").params[0], p, p};
  f.params = params;
  EXPECT_THROW(eval_length(f, 1, b), TraceError);
}

} // namespace
} // namespace pilgrim
